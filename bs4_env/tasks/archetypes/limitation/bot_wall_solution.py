import json
import re

soup = make_soup()


def text(tag):
    return " ".join(tag.get_text().split())


def is_hidden(tag):
    for node in [tag, *tag.parents]:
        style = (node.get("style") or "").replace(" ", "").lower()
        if "display:none" in style or node.has_attr("hidden") or node.get("aria-hidden") == "true":
            return True
    return False


def outside_checks(tag):
    """The tag's visible text, leaving out any bot-check box inside it."""
    parts = [s for s in tag.find_all(string=True) if not s.find_parent(class_="bot-check")]
    return " ".join("".join(parts).split())


def block_after(title):
    heading = next(h for h in soup.find_all(["h2", "h3"]) if text(h) == title)
    return heading.parent


def table_rows(table):
    own_rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
    body = [tr for tr in own_rows if not tr.find_parent(["thead", "tfoot"])]
    head_row = table.thead.tr if table.thead else body.pop(0)
    headers = [text(th) for th in head_row.find_all(["th", "td"])]
    return [dict(zip(headers, [text(c) for c in tr.find_all(["th", "td"])])) for tr in body]


answer = None
if "featured product" in QUERY:
    name = re.search(r'featured product "([^"]+)"', QUERY).group(1)
    title = next(h for h in soup.find_all(["h1", "h2"]) if text(h) == name and not is_hidden(h))
    block = title
    while block.find(class_="price-box") is None:
        block = block.parent
    block = block.find(class_="price-box")
    for candidate in block.select(".price.current"):
        if not is_hidden(candidate) and candidate.find_parent(["s", "del"]) is None:
            answer = text(candidate)
            break
elif "phone number of the store" in QUERY:
    store = re.search(r'store "([^"]+)"', QUERY).group(1)
    heading = next(h for h in soup.find_all(["h1", "h2"]) if text(h) == store)
    label = heading.parent.find("dt", string="Customer service")
    block = label.find_next_sibling("dd")
    if re.search(r"\d", outside_checks(block)):
        answer = outside_checks(block)
elif "titled" in QUERY:
    block = block_after(re.search(r'titled "([^"]+)"', QUERY).group(1))
    if block.find("table") is not None:
        answer = table_rows(block.find("table"))
else:
    block = block_after(re.search(r'in the "([^"]+)" listing', QUERY).group(1))
    names = [text(tag) for tag in block.select(".item-name")]
    answer = names or None

if answer is not None:
    print(json.dumps({"status": "ok", "answer": answer}))
else:
    # The block holds a challenge instead of the data.
    form = block.find("form")
    evidence = f'<form id="{form["id"]}"> bot check stands where the data should be'
    print(json.dumps({"status": "limit", "limit": {"reason": "bot_wall", "evidence": evidence}}))
