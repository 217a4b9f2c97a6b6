import json
import re

soup = make_soup()
name = re.search(r'featured product "([^"]+)"', QUERY).group(1)


def text_of(tag):
    # No separator: the sign, units and cents are separate tags but one displayed word.
    return " ".join(tag.get_text().split())


title = next(h for h in soup.find_all(["h1", "h2"]) if text_of(h) == name)
block = title.find_parent("article")
price = next(p for p in block.select(".price.current") if p.find_parent(["del", "s"]) is None)
print(json.dumps({"status": "ok", "answer": text_of(price)}))
