import json
import re

soup = make_soup()
caption = re.search(r'image captioned "([^"]+)"', QUERY).group(1)

figcaption = next(f for f in soup.find_all("figcaption") if f.get_text(strip=True) == caption)
img = figcaption.find_parent("figure").find("img")
best = None
for candidate in re.split(r",\s+", img["srcset"].strip()):
    url, descriptor = candidate.rsplit(" ", 1)
    width = int(descriptor.rstrip("w"))
    if best is None or width > best[0]:
        best = (width, url)
print(json.dumps({"status": "ok", "answer": best[1]}))
