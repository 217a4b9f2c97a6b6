import json
import re

soup = make_soup()
match = re.search(r'the form (with id|under the heading) "([^"]+)"', QUERY)
if match.group(1) == "with id":
    form = soup.find("form", id=match.group(2))
else:
    heading = soup.find(
        lambda t: (
            t.name in ("h1", "h2", "h3")
            and t.get_text(strip=True) == match.group(2)
            and t.find_next_sibling("form") is not None
        )
    )
    form = heading.find_next_sibling("form")

mapping = {}
for label in form.find_all("label"):
    if label.get("for"):
        control = soup.find(id=label["for"])
    else:
        control = label.find(["input", "select", "textarea"])
    name = control.get("name")
    # Drop the marker and any nested control so only the label's own words remain.
    for junk in label.find_all(["select", "textarea", "option"]) + label.select(".required"):
        junk.extract()
    text = " ".join(label.get_text().split())
    mapping[text] = name
print(json.dumps({"status": "ok", "answer": mapping}))
