import json
import re

soup = make_soup()
match = re.search(r'form (with id|whose action is|under the heading) "([^"]+)"', QUERY)
how, key = match.group(1), match.group(2)
if how == "with id":
    form = soup.find("form", id=key)
elif how == "whose action is":
    form = soup.find("form", action=key)
else:
    heading = soup.find(lambda t: t.name in ("h2", "h3") and t.get_text(strip=True) == key)
    form = heading.find_next("form")

fields = []
for control in form.find_all(["input", "select", "textarea"]):
    name = control.get("name")
    if not name:
        continue
    if control.name == "input":
        kind = control.get("type", "text").lower()
        if kind == "submit":
            continue
    else:
        kind = control.name
    fields.append({"name": name, "type": kind})
print(json.dumps({"status": "ok", "answer": fields}))
