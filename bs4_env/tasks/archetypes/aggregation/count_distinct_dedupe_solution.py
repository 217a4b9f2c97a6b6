import json
import re

soup = make_soup()
title = re.search(r'listed in the "([^"]+)" section', QUERY).group(1)
heading = next(h for h in soup.find_all("h2") if " ".join(h.get_text().split()) == title)
section = heading.find_parent("section")
# One SKU per product, wherever (and however often) its card appears in the section.
skus = {card["data-sku"] for card in section.find_all(attrs={"data-sku": True})}
print(json.dumps({"status": "ok", "answer": len(skus)}))
