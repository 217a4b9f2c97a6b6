import json
import re

soup = make_soup()
name = re.search(r'product tile of "([^"]+)"', QUERY).group(1)
key = re.search(r'value of "([^"]+)"', QUERY).group(1)


def text_of(tag):
    return " ".join(tag.get_text().split())


tile = next(t for t in soup.select(".product-tile[data-props]") if text_of(t.find("h3")) == name)
props = json.loads(tile["data-props"])  # BeautifulSoup already decoded &quot; and friends
value = props["price"][key] if 'inside its "price" object' in QUERY else props[key]
print(json.dumps({"status": "ok", "answer": value}))
