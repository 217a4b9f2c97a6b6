import json
import re

soup = make_soup()
class_name = re.search(r'CSS class "([^"]+)"', QUERY).group(1)
texts = [" ".join(tag.get_text().split()) for tag in soup.find_all(class_=class_name)]
print(json.dumps({"status": "ok", "answer": texts}))
