import json
import re

soup = make_soup()
store = re.search(r'the store "([^"]+)"', QUERY).group(1)


def text(tag):
    return " ".join(tag.get_text().split())


def owner(tag):
    """The item a property belongs to: its nearest enclosing itemscope."""
    return tag.find_parent(attrs={"itemscope": True})


# The store's own item: the itemscope whose own name property is the store's name.
names = soup.find_all(attrs={"itemprop": "name"})
name = next(t for t in names if text(t) == store and owner(t) is not None)
item = owner(name)
phone = next(t for t in item.find_all(attrs={"itemprop": "telephone"}) if owner(t) is item)
print(json.dumps({"status": "ok", "answer": text(phone)}))
