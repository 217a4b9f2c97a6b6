import json
import re

soup = make_soup()
uid = re.search(r'data-unit="([^"]+)"', QUERY).group(1)
unit = soup.find(attrs={"data-unit": uid})
# The unit's own code: the one whose nearest enclosing unit is this unit, not a nested one.
own = next(
    code
    for code in unit.find_all(class_="cc-code")
    if code.find_parent(attrs={"data-unit": True}) is unit
)
print(json.dumps({"status": "ok", "answer": own.get_text(strip=True)}))
