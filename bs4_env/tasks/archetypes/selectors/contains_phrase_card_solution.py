import json
import re

soup = make_soup()
title, phrase = re.search(
    r'In the "([^"]+)" section, one person\'s bio mentions "([^"]+)"', QUERY
).groups()


def text_of(tag):
    return " ".join(tag.get_text().split())


headings = [h for h in soup.find_all(["h2", "h3"]) if text_of(h) == title]
section = next(
    s for s in (h.find_parent("section") for h in headings) if s and s.select(".person-card")
)
card = section.select_one(f'.person-card:-soup-contains("{phrase}")')
answer = {"name": text_of(card.select_one(".name")), "time": text_of(card.find("time"))}
print(json.dumps({"status": "ok", "answer": answer}))
