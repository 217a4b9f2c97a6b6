import json
import re

soup = make_soup()
title = re.search(r'chart titled "([^"]+)"', QUERY).group(1)


def label(text_tag):
    # Two <tspan> lines read as one line with a space between them.
    return " ".join(text_tag.get_text(" ").split())


svg = next(s for s in soup.find_all("svg") if s.find("title") and label(s.find("title")) == title)
bars = svg.find_all("rect", class_="bar")
base = max(float(b["y"]) + float(b["height"]) for b in bars)
centers = [float(b["x"]) + float(b["width"]) / 2 for b in bars]
groups = [g for g in svg.find_all("g") if g.find("text") and "legend" not in g.get("class", [])]
above, below = {}, {}
for group in groups:
    for text in group.find_all("text", recursive=False):
        x = float(text["x"])
        if x not in centers:
            continue  # y-axis ticks sit left of the bars
        (below if float(text["y"]) > base else above)[x] = label(text)
answer = {below[x]: above[x] for x in centers}
print(json.dumps({"status": "ok", "answer": answer}))
