import json
import re

soup = make_soup()
label, title = re.search(r'listed for "([^"]+)" in the "([^"]+)" section', QUERY).groups()
heading = soup.find(lambda t: t.name in ("h2", "h3") and t.get_text(strip=True) == title)
section = heading.find_parent("section")
key = section.find(lambda t: t.name in ("dt", "th", "span") and t.get_text(strip=True) == label)
# .next_sibling would be whitespace or a comment; the value is the next tag.
value = key.find_next_sibling()
print(json.dumps({"status": "ok", "answer": " ".join(value.get_text().split())}))
