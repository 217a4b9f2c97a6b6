import json
import re

soup = make_soup("html5lib")
caption = re.search(r'titled "([^"]+)"', QUERY).group(1)


def text(tag):
    return " ".join(tag.get_text().split())


table = None
for tag in soup.find_all(["caption", "h1", "h2", "h3", "h4"]):
    if text(tag) == caption:
        table = tag.find_parent("table") if tag.name == "caption" else tag.find_next("table")
        break

grid = []
pending = {}  # column -> [rows still covered, text]
for tr in table.find_all("tr"):
    if tr.find_parent("table") is not table:
        continue
    cells = tr.find_all(["td", "th"], recursive=False)
    row, col = [], 0
    while cells or any(c >= col for c in pending):
        if col in pending:
            left, value = pending[col]
            row.append(value)
            if left == 1:
                del pending[col]
            else:
                pending[col] = [left - 1, value]
            col += 1
            continue
        if not cells:
            col += 1
            continue
        cell = cells.pop(0)
        value = text(cell)
        rowspan = int(cell.get("rowspan", 1) or 1)
        for _ in range(int(cell.get("colspan", 1) or 1)):
            row.append(value)
            if rowspan > 1:
                pending[col] = [rowspan - 1, value]
            col += 1
    grid.append(row)
print(json.dumps({"status": "ok", "answer": grid}))
