import json
import re

soup = make_soup()
author = re.search(r"review by (.+?) say\?", QUERY).group(1)


def text_of(tag):
    return " ".join(tag.get_text().split())


# .string would be None here: the body mixes text with <br>, <em> and nested spans.
byline = soup.find(lambda t: "review-author" in t.get("class", []) and text_of(t) == author)
body = byline.find_parent(class_="review").find(class_="review-body")
print(json.dumps({"status": "ok", "answer": text_of(body)}))
