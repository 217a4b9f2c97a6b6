import json
import re

soup = make_soup()
icon_id = re.search(r'with id "([^"]+)"', QUERY).group(1)
# The icon's own <title>: soup.title would be the page's title in the head.
icon = soup.find(id=icon_id)
print(json.dumps({"status": "ok", "answer": icon.find("title").get_text(strip=True)}))
