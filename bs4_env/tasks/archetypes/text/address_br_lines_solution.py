import json
import re

soup = make_soup()
store = re.search(r'postal address of "([^"]+)"\?', QUERY).group(1)


def text_of(tag):
    return " ".join(tag.get_text().split())


heading = next(h for h in soup.find_all("h3") if text_of(h) == store)
address = heading.find_parent(class_="store-card").find("address")
# Split on the <br> elements, not on text nodes: a postcode <span> is part of its line.
for br in address.find_all("br"):
    br.replace_with("\n")
lines = [" ".join(line.split()) for line in address.get_text().split("\n")]
lines = [line for line in lines if line]
joined = re.search(r'lines joined by "([^"]*)"', QUERY)
answer = joined.group(1).join(lines) if joined else lines
print(json.dumps({"status": "ok", "answer": answer}))
