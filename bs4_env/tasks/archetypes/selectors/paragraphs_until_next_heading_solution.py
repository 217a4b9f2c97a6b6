import json
import re

soup = make_soup()
title = re.search(r'paragraphs of the section "([^"]+)"\?', QUERY).group(1)


def text_of(tag):
    return " ".join(tag.get_text().split())


heading = next(h for h in soup.select("article h2") if text_of(h) == title)
paragraphs = []
for sibling in heading.find_next_siblings():
    if sibling.name in ("h1", "h2", "h3"):
        break  # the next section starts here
    if sibling.name == "p":
        paragraphs.append(text_of(sibling))
print(json.dumps({"status": "ok", "answer": paragraphs}))
