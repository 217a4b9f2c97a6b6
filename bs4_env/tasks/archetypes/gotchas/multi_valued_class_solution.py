import json
import re

soup = make_soup()
wanted = re.findall(r'"([^"]+)"', QUERY)
names = []
for tag in soup.find_all(class_=wanted[0]):
    if all(cls in tag.get("class", []) for cls in wanted):
        names.append(tag.find(class_="card-title").get_text(strip=True))
print(json.dumps({"status": "ok", "answer": names}))
