import json
import re

soup = make_soup()
author = re.search(r"did (.+?) post their comment", QUERY).group(1)

name = next(b for b in soup.select(".comment .author") if b.get_text(strip=True) == author)
header = name.parent
# The posting time is the header's own <time>, not the one inside the edit note.
posted = next(t for t in header.find_all("time") if not t.find_parent(class_="edit-note"))
print(json.dumps({"status": "ok", "answer": posted["datetime"]}))
