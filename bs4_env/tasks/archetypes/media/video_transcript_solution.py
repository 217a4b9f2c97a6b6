import json
import re

soup = make_soup()
match = re.search(r'According to the \w+ "(.+)" on this page, what is the (.+)\?', QUERY)
title, fact = match.group(1), match.group(2)

# A statement of each fact names its subject and gives a value of a known shape.
RULES = {
    "oven temperature": (r"\boven\b", r"\d+ °[CF]"),
    "baking time": (r"\bbak(?:e|es|ing)\b", r"\d+ minutes"),
    "minimum supported version": (r"at least|or newer|minimum", r"v\d+\.\d+\.\d+"),
    "listener discount code": (r"checkout|discount", r"\b[A-Z]{3,}\d{2}\b"),
    "announced launch date": (r"launch", r"\d{1,2} [A-Z][a-z]+ \d{4}"),
}
keyword, shape = RULES[fact]


def text(tag):
    return " ".join(tag.get_text().split())


heading = next(h for h in soup.find_all("h1") if text(h) == title)
article = heading.find_parent("article")
values = []
for node in article.find_all(["p", "li"]):
    for sentence in re.split(r"(?<=[.!?])\s+", text(node)):
        if re.search(keyword, sentence, re.IGNORECASE):
            values += re.findall(shape, sentence)

if values:
    print(json.dumps({"status": "ok", "answer": values[0]}))
else:
    # Stated nowhere on the page: only the recording says it.
    player = article.find(["video", "audio", "iframe"])
    source = player.get("src") or player.find("source")["src"]
    evidence = f'<{player.name} id="{player["id"]}"> plays {source}; the value is only spoken'
    print(json.dumps({"status": "limit", "limit": {"reason": "media_only", "evidence": evidence}}))
