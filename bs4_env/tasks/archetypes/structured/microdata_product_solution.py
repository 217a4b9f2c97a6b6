import json
import re

soup = make_soup()
name = re.search(r'named "([^"]+)"', QUERY).group(1)


def value(tag):
    if tag.name == "meta":
        return tag["content"]
    if tag.name in ("link", "a"):
        return tag["href"]
    if tag.name == "img":
        return tag["src"]
    return " ".join(tag.get_text().split())


def props(item):
    """The item's own properties: skip those that belong to a nested itemscope."""
    own = {}
    for tag in item.find_all(attrs={"itemprop": True}):
        if tag.find_parent(attrs={"itemscope": True}) is item:
            own.setdefault(tag["itemprop"], tag)
    return own


items = [
    tag
    for tag in soup.find_all(attrs={"itemscope": True})
    if not tag.has_attr("itemprop") and "Product" in tag.get("itemtype", "")
]
item = next(i for i in items if value(props(i)["name"]) == name)
own = props(item)
offer = props(own["offers"])
answer = {
    "sku": value(own["sku"]),
    "brand": value(props(own["brand"])["name"]),
    "price": value(offer["price"]),
    "priceCurrency": value(offer["priceCurrency"]),
    "ratingValue": value(props(own["aggregateRating"])["ratingValue"]),
}
print(json.dumps({"status": "ok", "answer": answer}))
