import json
import re

soup = make_soup()
product, term = re.search(
    r'list of "([^"]+)", what values are given for the term "([^"]+)"', QUERY
).groups()


def text_of(tag):
    return " ".join(tag.get_text().split())


heading = next(h for h in soup.find_all("h2") if text_of(h) == product)
specs = heading.find_parent("section").find("dl", class_="specs")
# Only this list's own terms: a nested <dl> inside a <dd> has its own.
terms = [dt for dt in specs.find_all("dt") if dt.find_parent("dl") is specs]
dt = next(d for d in terms if text_of(d) == term)
values = []
for sibling in dt.find_next_siblings(["dt", "dd"]):
    if sibling.name == "dt":
        if values:
            break  # the next group starts
        continue  # a second term sharing the same values
    values.append(text_of(sibling))
print(json.dumps({"status": "ok", "answer": values}))
