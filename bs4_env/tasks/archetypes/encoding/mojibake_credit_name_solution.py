import json
import re

soup = make_soup()
section, role = re.search(
    r'The "([^"]+)" list shows .*? Who is listed there as (.+?)\? Give', QUERY
).groups()


def text_of(tag):
    return " ".join(tag.get_text().split())


heading = next(h for h in soup.find_all("h2") if text_of(h) == section)
credits = heading.find_parent("section")
row = next(li for li in credits.find_all("li") if text_of(li.find(class_="role")) == role)
garbled = row.find(class_="name").get_text()  # repair before collapsing whitespace
repaired = garbled.encode("cp1252").decode("utf-8")
print(json.dumps({"status": "ok", "answer": " ".join(repaired.split())}))
