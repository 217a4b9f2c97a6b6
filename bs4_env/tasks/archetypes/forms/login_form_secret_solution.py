import json
import re

soup = make_soup()
heading_text = re.search(r'under the heading "([^"]+)"', QUERY).group(1)
heading = soup.find(
    lambda t: t.name in ("h1", "h2", "h3") and t.get_text(strip=True) == heading_text
)
form = heading.find_next("form")

# Only names are collected; values (password, tokens) are never read or printed.
fields = []
for control in form.find_all(["input", "select", "textarea"]):
    if not control.get("name"):
        continue
    if control.name == "input" and control.get("type", "text").lower() == "submit":
        continue
    fields.append(control["name"])
answer = {
    "action": form.get("action"),
    "method": form.get("method", "get").lower(),
    "fields": fields,
}
print(json.dumps({"status": "ok", "answer": answer}))
