import json
import re

soup = make_soup()


def text(tag):
    return " ".join(tag.get_text().split())


def table_rows(table):
    own_rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
    body = [tr for tr in own_rows if not tr.find_parent(["thead", "tfoot"])]
    head_row = table.thead.tr if table.thead else body.pop(0)
    headers = [text(th) for th in head_row.find_all(["th", "td"])]
    return [dict(zip(headers, [text(c) for c in tr.find_all(["th", "td"])])) for tr in body]


answer = None
if "phone number of the store" in QUERY:
    store = re.search(r'store "([^"]+)"', QUERY).group(1)
    heading = next(h for h in soup.find_all(["h1", "h2"]) if text(h) == store)
    block = heading.parent.find("dt", string="Customer service").find_next_sibling("dd")
    graphic = block.find(id=True)
    link = block.find("a", href=re.compile(r"^tel:"))
    # The row's tel: link (not the call-back link beside it), else the image's text alternative.
    candidates = (text(link) if link else "", graphic.get("alt", ""), graphic.get("aria-label", ""))
    for candidate in candidates:
        if re.search(r"\d", candidate):
            answer = candidate
            break
else:
    caption = re.search(r'titled "([^"]+)"', QUERY).group(1)
    heading = next(h for h in soup.find_all(["h2", "h3"]) if text(h) == caption)
    block = heading.parent
    table = block.find("table")  # under the image, in a <details> or in the figcaption
    if table is not None:
        answer = table_rows(table)

if answer is not None:
    print(json.dumps({"status": "ok", "answer": answer}))
else:
    graphic = block.find(["img", "span"], id=True)
    source = graphic.get("src") or re.search(r"url\('?([^')]+)", graphic["style"]).group(1)
    evidence = f'the data is only an image: <{graphic.name} id="{graphic["id"]}"> {source}'
    print(json.dumps({"status": "limit", "limit": {"reason": "image_text", "evidence": evidence}}))
