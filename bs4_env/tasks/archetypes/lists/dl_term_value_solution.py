import json
import re

soup = make_soup()
term = re.search(r'value is listed for "([^"]+)"', QUERY).group(1)

specs = soup.find("dl", class_="specs")
dt = next(d for d in specs.find_all("dt") if d.get_text(strip=True) == term)
value = dt.find_next_sibling("dd").get_text(" ", strip=True)
print(json.dumps({"status": "ok", "answer": value}))
