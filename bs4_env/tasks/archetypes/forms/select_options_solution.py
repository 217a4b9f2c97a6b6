import json
import re

soup = make_soup()
by_label = re.search(r'dropdown labelled "([^"]+)"', QUERY)
if by_label:
    label = soup.find("label", string=lambda s: s and s.strip() == by_label.group(1))
    select = soup.find("select", id=label["for"])
else:
    name = re.search(r'<select> named "([^"]+)"', QUERY).group(1)
    select = soup.find("select", attrs={"name": name})

options = []
for option in select.find_all("option"):
    text = " ".join(option.get_text().split())
    value = option.get("value")
    if value is None:
        value = text
    if value == "":
        continue
    options.append({"value": value, "text": text})
print(json.dumps({"status": "ok", "answer": options}))
