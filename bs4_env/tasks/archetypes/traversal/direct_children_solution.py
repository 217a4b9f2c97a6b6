import json
import re

soup = make_soup()
by_id = re.search(r'menu list with id "([^"]+)"', QUERY)
if by_id:
    menu = soup.find("ul", id=by_id.group(1))
else:
    name = re.search(r'the "([^"]+)" navigation menu', QUERY).group(1)
    menu = soup.find("nav", attrs={"aria-label": name}).find("ul")

labels = []
for item in menu.find_all("li", recursive=False):
    head = item.find(["a", "button"], recursive=False)
    labels.append(" ".join(head.get_text().split()))
print(json.dumps({"status": "ok", "answer": labels}))
