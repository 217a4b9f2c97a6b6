import json
import re

soup = make_soup()
title = re.search(r'In the "([^"]+)" section', QUERY).group(1)


def text_of(tag):
    return " ".join(tag.get_text().split())


section = next(h for h in soup.find_all("h2") if text_of(h) == title).find_parent("section")
if "mailto:" in QUERY:
    links = section.select('a[href^="mailto:"]')
    answer = [a["href"][len("mailto:") :].split("?")[0] for a in links]
else:
    answer = [a["href"] for a in section.select('a[href$=".pdf"]')]
print(json.dumps({"status": "ok", "answer": answer}))
