import json
import re

soup = make_soup()
code = re.search(r'language code "([^"]+)"', QUERY).group(1)
# An exact attribute match on a head <link>: no prefix or substring matching of codes.
link = soup.find("link", rel="alternate", hreflang=code)
print(json.dumps({"status": "ok", "answer": link["href"]}))
