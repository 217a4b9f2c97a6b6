import json
import re

soup = make_soup()
sku = re.search(r'item number "([^"]+)"', QUERY).group(1)

line = soup.find("p", class_="sku", string=f"Item no. {sku}")
card = line.find_parent(class_="product-card")
raw = card.find(class_="name").get_text()
# Soft hyphen, zero-width space, word joiner and BOM are not displayed; nbsp/thin spaces
# are whitespace to str.split().
visible = re.sub("[\u00ad\u200b\u2060\ufeff]", "", raw)
print(json.dumps({"status": "ok", "answer": " ".join(visible.split())}))
