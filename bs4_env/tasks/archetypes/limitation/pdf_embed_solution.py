import json
import re

soup = make_soup()
caption = re.search(r'titled "([^"]+)"', QUERY).group(1)
column = re.search(r'return every value in the "([^"]+)" column', QUERY)


def text(tag):
    return " ".join(tag.get_text().split())


title = next(t for t in soup.find_all(["caption", "h1", "h2", "h3", "h4"]) if text(t) == caption)
# The table's own block: the captioned table itself, or the section under the heading.
block = title.find_parent("table") if title.name == "caption" else title.parent
table = block if block.name == "table" else block.find("table")

if table is None:
    viewer = block.find(["embed", "object", "iframe"])
    src = viewer.get("src") or viewer.get("data")
    evidence = f'<{viewer.name} id="{viewer.get("id")}"> shows the table only as a PDF: {src}'
    print(json.dumps({"status": "limit", "limit": {"reason": "pdf_embed", "evidence": evidence}}))
else:
    own_rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
    body = [tr for tr in own_rows if not tr.find_parent(["thead", "tfoot"])]
    head_row = table.thead.tr if table.thead else body.pop(0)
    headers = [text(th) for th in head_row.find_all(["th", "td"])]
    rows = [[text(cell) for cell in tr.find_all(["th", "td"])] for tr in body]
    if column:
        index = headers.index(column.group(1))
        answer = [row[index] for row in rows]
    else:
        answer = [dict(zip(headers, row)) for row in rows]
    print(json.dumps({"status": "ok", "answer": answer}))
