import json
import re

soup = make_soup()
text = re.search(r'(?:written by|exact text) "([^"]+)"', QUERY).group(1)


def is_hidden(node):
    for tag in [node, *node.parents]:
        if getattr(tag, "attrs", None) is None:
            continue
        style = tag.get("style", "").replace(" ", "").lower()
        if tag.has_attr("hidden") or "display:none" in style:
            return True
    return False


answer = None
for found in soup.find_all(string=lambda s: s.strip() == text):
    element = found.parent
    if is_hidden(element):
        continue
    if "data-sku" in QUERY:
        card = element.find_parent(attrs={"data-sku": True})
        if card is not None:
            answer = card["data-sku"]
            break
    else:
        section = element.find_parent("section")
        if section is not None:
            answer = section.get("id")
            break
print(json.dumps({"status": "ok", "answer": answer}))
