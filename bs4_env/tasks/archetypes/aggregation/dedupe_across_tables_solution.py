import json
import re

soup = make_soup()
first, second = re.search(r'registered in the tables "([^"]+)" and "([^"]+)"', QUERY).groups()


def text_of(tag):
    return " ".join(tag.get_text().split())


def emails(title):
    heading = next(h for h in soup.find_all("h2") if text_of(h) == title)
    table = heading.find_parent("section").find("table")
    headers = [text_of(th) for th in table.thead.find_all("th")]
    column = headers.index("Email")
    return [text_of(tr.find_all("td")[column]).lower() for tr in table.tbody.find_all("tr")]


seen = []
for address in emails(first) + emails(second):
    if address not in seen:
        seen.append(address)
print(json.dumps({"status": "ok", "answer": seen}))
