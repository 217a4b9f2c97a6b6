import json
import re

soup = make_soup()
name = re.search(r'featured product "([^"]+)"', QUERY).group(1)

script = next(s for s in soup.find_all("script") if "__INITIAL_STATE__ =" in (s.string or ""))
body = script.string
start = body.index("__INITIAL_STATE__ =") + len("__INITIAL_STATE__ =")
decoder = json.JSONDecoder()
rest = body[start:].lstrip()
if rest.startswith("JSON.parse("):
    # A JSON text inside a JavaScript string literal: decode the string, then the JSON.
    text, _ = decoder.raw_decode(rest[len("JSON.parse(") :])
    state = json.loads(text)
else:
    # Other statements follow the object literal, so decode just the first value.
    state, _ = decoder.raw_decode(rest)

products = state["entities"]["products"]["byId"].values()
product = next(p for p in products if p["name"] == name)
print(json.dumps({"status": "ok", "answer": product["price"]["current"]["formatted"]}))
