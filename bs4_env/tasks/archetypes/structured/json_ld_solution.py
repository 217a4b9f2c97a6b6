import json
import re

soup = make_soup()
entities = []
for script in soup.find_all("script", type="application/ld+json"):
    data = json.loads(script.string)
    for item in data if isinstance(data, list) else [data]:
        entities.extend(item.get("@graph", [item]))

name = re.search(r'"([^"]+)"', QUERY).group(1)
by_name = {e.get("name"): e for e in entities if "name" in e}
if "phone number of the store" in QUERY:
    answer = by_name[name]["telephone"]
elif "offer price" in QUERY:
    answer = by_name[name]["offers"]["price"]
elif "What SKU" in QUERY:
    answer = by_name[name]["sku"]
elif "startDate" in QUERY:
    answer = by_name[name]["startDate"]
elif "venue" in QUERY:
    answer = by_name[name]["location"]["name"]
else:
    crumbs = next(e for e in entities if e.get("@type") == "BreadcrumbList")
    answer = next(i["item"] for i in crumbs["itemListElement"] if i["name"] == name)
print(json.dumps({"status": "ok", "answer": answer}))
