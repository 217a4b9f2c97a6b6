import json
import re

soup = make_soup("lxml")
caption = re.search(r'titled "([^"]+)"', QUERY).group(1)


def text(tag):
    return " ".join(tag.get_text().split())


table = None
for tag in soup.find_all(["caption", "h1", "h2", "h3", "h4"]):
    if text(tag) == caption:
        table = tag.find_parent("table") if tag.name == "caption" else tag.find_next("table")
        break

rows = []
for tr in table.find_all("tr"):
    if tr.find_parent("table") is table:
        rows.append([text(cell) for cell in tr.find_all(["th", "td"])])
print(json.dumps({"status": "ok", "answer": rows}))
