import json
import re

soup = make_soup()
wanted = re.findall(r'"([a-z_]+:[a-z_:]+)"', QUERY.split("return an object with the keys", 1)[1])
found = {}
for tag in soup.find_all("meta"):
    # Twitter tags come with either attribute; keep the first tag of a repeated key.
    key = tag.get("property") or tag.get("name")
    if key in wanted and key not in found:
        found[key] = tag["content"]
print(json.dumps({"status": "ok", "answer": {key: found[key] for key in wanted}}))
