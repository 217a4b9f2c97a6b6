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

own_rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
body = [tr for tr in own_rows if not tr.find_parent(["thead", "tfoot"])]
head_row = table.thead.tr if table.thead else body.pop(0)
headers = [text(th) for th in head_row.find_all(["th", "td"])]
answer = [dict(zip(headers, [text(c) for c in tr.find_all(["th", "td"])])) for tr in body]
print(json.dumps({"status": "ok", "answer": answer}))
