import json
import re

soup = make_soup()
element_id = re.search(r"id '([^']+)'", QUERY).group(1)
element = soup.find(id=element_id)
text = " ".join(element.get_text().split())
print(json.dumps({"status": "ok", "answer": text}))
