import json
import re

soup = make_soup()
title = re.search(r'body text of the article "(.+?)" \(its paragraphs', QUERY).group(1)


def text_of(tag):
    return " ".join(tag.get_text().split())


heading = next(h for h in soup.find_all("h1") if text_of(h) == title)
body = heading.find_parent("article").find(class_="article-body")
links = [{"text": text_of(a), "href": a["href"]} for a in body.find_all("a", href=True)]
print(json.dumps({"status": "ok", "answer": links}))
