import json
import re

soup = make_soup()
title, item = re.search(
    r'In the list "([^"]+)", what number does the page show next to "([^"]+)"', QUERY
).groups()


def text_of(tag):
    return " ".join(tag.get_text().split())


heading = next(h for h in soup.find_all("h2") if text_of(h) == title)
ol = heading.find_next_sibling("ol")
items = ol.find_all("li", recursive=False)  # a nested list's items do not count
reversed_ = ol.has_attr("reversed")
number = int(ol["start"]) if ol.has_attr("start") else (len(items) if reversed_ else 1)
answer = None
for index, li in enumerate(items):
    if li.has_attr("value"):
        number = int(li["value"])
    elif index:
        number += -1 if reversed_ else 1
    if text_of(li.find(class_="title")) == item:
        answer = number
        break
print(json.dumps({"status": "ok", "answer": answer}))
