import json
import re

soup = make_soup()
caption = re.search(r'In the table "([^"]+)"', QUERY).group(1)
column = re.search(r"sum of the (\w+) column", QUERY).group(1)
status = re.search(r'status is exactly "([^"]+)"', QUERY).group(1)


def text_of(tag):
    return " ".join(tag.get_text().split())


def current(cell):
    # Crossed-out old values (<del>, <s>) are not the current value.
    kept = [s for s in cell.find_all(string=True) if not s.find_parent(["del", "s"])]
    return " ".join("".join(kept).split())


heading = next(h for h in soup.find_all("h2") if text_of(h) == caption)
table = heading.find_next("table")
headers = [text_of(th) for th in table.thead.find_all("th")]
total = 0
for row in table.tbody.find_all("tr"):
    cells = dict(zip(headers, row.find_all("td")))
    if text_of(cells["Status"]) != status:
        continue
    number = re.sub(r"[^\d.]", "", current(cells[column]))
    total += round(float(number) * 100)
answer = total // 100 if column == "Qty" else round(total / 100, 2)
print(json.dumps({"status": "ok", "answer": answer}))
