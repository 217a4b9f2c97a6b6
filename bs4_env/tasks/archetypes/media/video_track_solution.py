import json
import re

soup = make_soup()
title = re.search(r'video captioned "([^"]+)"', QUERY).group(1)
figcaption = next(f for f in soup.find_all("figcaption") if f.get_text(strip=True) == title)
video = figcaption.find_parent("figure").find("video")
lang = re.search(r'srclang "([^"]+)"', QUERY)
if lang:
    # Both attributes must match: captions and chapters tracks share the language.
    tag = video.find("track", kind="subtitles", srclang=lang.group(1))
else:
    tag = video.find("source", type=re.search(r'the "([^"]+)" source', QUERY).group(1))
print(json.dumps({"status": "ok", "answer": tag["src"]}))
