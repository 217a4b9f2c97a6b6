import json
import re

soup = make_soup()
name = re.search(r'featured product "([^"]+)"', QUERY).group(1)


def is_hidden(tag):
    for node in [tag, *tag.parents]:
        style = (node.get("style") or "").replace(" ", "").lower()
        if "display:none" in style or node.has_attr("hidden") or node.get("aria-hidden") == "true":
            return True
    return False


def visible_text(tag):
    return " ".join(tag.get_text().split())


# The featured product is the one with a page heading; the sidebar repeats the name in a link.
title = next(h for h in soup.find_all(["h1", "h2"]) if visible_text(h) == name and not is_hidden(h))
price = None
block = title
while price is None and block.parent is not None:
    block = block.parent
    for candidate in block.select(".price.current"):
        if not is_hidden(candidate) and candidate.find_parent(["s", "del"]) is None:
            price = candidate
            break
print(json.dumps({"status": "ok", "answer": visible_text(price)}))
