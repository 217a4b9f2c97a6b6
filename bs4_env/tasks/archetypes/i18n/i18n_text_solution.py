import json
import re

soup = make_soup()
label = re.search(r"What is the (.+?) in the ", QUERY).group(1)
code = re.search(r'lang="([^"]+)"', QUERY).group(1)
classes = {
    "title": "title",
    "short description": "summary",
    "tagline": "tagline",
    "care note": "care",
}
# The <html> element may carry the same lang code, so look for the card's own sections.
block = soup.find("section", class_="locale", lang=code)
text = " ".join(block.find(class_=classes[label]).get_text().split())
print(json.dumps({"status": "ok", "answer": text}, ensure_ascii=False))
