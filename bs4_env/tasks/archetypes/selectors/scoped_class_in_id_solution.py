import json
import re

soup = make_soup()
box_id, wanted = re.search(
    r'id "([^"]+)", what is the text of the element with class "([^"]+)"', QUERY
).groups()

element = soup.select_one(f"#{box_id} .{wanted}")
print(json.dumps({"status": "ok", "answer": " ".join(element.get_text().split())}))
