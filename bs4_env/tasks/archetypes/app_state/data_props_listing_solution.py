import json
import re

soup = make_soup()
section = re.search(r'in the "([^"]+)" listing', QUERY).group(1)

answer = None
for tag in soup.find_all(True):
    for attr in ("data-react-props", "data-props", ":items"):
        if not tag.has_attr(attr):
            continue
        # BeautifulSoup has decoded the entities, so the attribute is plain JSON.
        props = json.loads(tag[attr])
        title = props["title"] if isinstance(props, dict) else tag.get("title")
        items = props["items"] if isinstance(props, dict) else props
        if title == section:
            answer = [item["name"] for item in items]
print(json.dumps({"status": "ok", "answer": answer}))
