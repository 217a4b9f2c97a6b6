import json

soup = make_soup()
# soup.title is the first <title> in the document: the head's, not an SVG icon's.
title = " ".join(soup.title.get_text().split())
answer = title.rsplit(" | ", 1)[0]
print(json.dumps({"status": "ok", "answer": answer}))
