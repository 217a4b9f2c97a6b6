import json
import re

soup = make_soup()
title = re.search(r'What does the "([^"]+)" notice say\?', QUERY).group(1)


def text_of(tag):
    return " ".join(tag.get_text().split())


def is_hidden(tag):
    style = (tag.get("style") or "").replace(" ", "").lower()
    return tag.has_attr("hidden") or "display:none" in style


heading = next(h for h in soup.find_all("h3") if text_of(h) == title)
body = heading.find_parent(class_="callout").find(class_="callout-body")
for tag in body.find_all(["script", "style", "template", "noscript"]):
    tag.decompose()
for tag in body.find_all(is_hidden):
    tag.decompose()
# get_text() leaves comments out by default.
print(json.dumps({"status": "ok", "answer": text_of(body)}))
