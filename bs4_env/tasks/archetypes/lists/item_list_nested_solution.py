import json
import re

soup = make_soup()
section_name = re.search(r'items in the "([^"]+)" listing', QUERY).group(1)


def text_of(tag):
    return " ".join(tag.get_text().split())


heading = next(h for h in soup.find_all(["h2", "h3"]) if text_of(h) == section_name)
items_list = heading.find_parent("section").find("ul", class_="items")
# Only the list's own items: bundle entries, dividers and promo tiles are not items.
items = items_list.find_all("li", class_="item", recursive=False)
names = [text_of(item.select_one(".item-name")) for item in items]
print(json.dumps({"status": "ok", "answer": names}))
