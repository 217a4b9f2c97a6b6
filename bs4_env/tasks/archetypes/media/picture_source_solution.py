import json
import re

soup = make_soup()
caption = re.search(r'picture captioned "([^"]+)"', QUERY).group(1)
width = int(re.search(r"window (\d+) px wide", QUERY).group(1))
ratio = int(re.search(r"pixel ratio (\d+)", QUERY).group(1))
supported = {"image/webp", "image/jpeg", "image/png"}


def media_matches(media):
    if not media:
        return True
    for kind, px in re.findall(r"\((min|max)-width:\s*(\d+)px\)", media):
        if kind == "min" and width < int(px):
            return False
        if kind == "max" and width > int(px):
            return False
    return True


def candidates(srcset):
    out = {}
    for candidate in re.split(r",\s+", srcset.strip()):
        parts = candidate.split()
        density = parts[1] if len(parts) > 1 else "1x"
        out[density] = parts[0]
    return out


figcaption = next(f for f in soup.find_all("figcaption") if f.get_text(strip=True) == caption)
picture = figcaption.find_parent("figure").find("picture")
chosen = None
for source in picture.find_all("source"):
    type_ok = not source.get("type") or source["type"] in supported
    if type_ok and media_matches(source.get("media")):
        chosen = candidates(source["srcset"])
        break
if chosen is None:
    img = picture.find("img")
    chosen = candidates(img["srcset"]) if img.get("srcset") else {"1x": img["src"]}
answer = chosen.get(f"{ratio}x", chosen["1x"])
print(json.dumps({"status": "ok", "answer": answer}))
