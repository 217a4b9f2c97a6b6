import json
import re

soup = make_soup()
caption = re.search(r'titled "([^"]+)"', QUERY).group(1)

data = json.loads(soup.find("script", id="__NEXT_DATA__").string)
cache = data["props"]["pageProps"]["dehydratedState"]["queries"]
table = next(q["state"]["data"] for q in cache if q["state"]["data"]["title"] == caption)
# Rows are keyed by field id; the columns give each id's label and the column order.
answer = [{c["label"]: row[c["key"]] for c in table["columns"]} for row in table["rows"]]
print(json.dumps({"status": "ok", "answer": answer}))
