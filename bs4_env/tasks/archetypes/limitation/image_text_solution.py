import json
import re

soup = make_soup()
store = re.search(r'store "([^"]+)"', QUERY).group(1)

phone = None
for script in soup.find_all("script", type="application/ld+json"):
    data = json.loads(script.string)
    for entity in data.get("@graph", [data]):
        if entity.get("name") == store and entity.get("telephone"):
            phone = entity["telephone"]

label = soup.find("dt", string="Customer service")
cell = label.find_next_sibling("dd")
if phone is None and cell.get_text(strip=True):
    phone = cell.get_text(strip=True)
if phone is not None:
    print(json.dumps({"status": "ok", "answer": phone}))
else:
    # The row holds no text: only an image (or an element painted by a CSS background).
    graphic = cell.find(["img", "span"])
    source = graphic.get("src") or re.search(r"url\('?([^')]+)", graphic.get("style", "")).group(1)
    evidence = (
        f'customer-service number is an image: <{graphic.name} id="{graphic.get("id")}"> {source}'
    )
    print(json.dumps({"status": "limit", "limit": {"reason": "image_text", "evidence": evidence}}))
