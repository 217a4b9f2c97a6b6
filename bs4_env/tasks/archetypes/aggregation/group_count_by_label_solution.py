import json
import re

soup = make_soup()
title = re.search(r'In the "([^"]+)" section', QUERY).group(1)
heading = next(h for h in soup.find_all("h2") if " ".join(h.get_text().split()) == title)
review_list = heading.find_parent("section").find(class_="review-list")


def stars(rating):
    """The rating's number of stars, in whichever style the page writes it."""
    if rating.has_attr("data-stars"):
        return int(rating["data-stars"])
    label = rating.get("title") or rating.get("aria-label")
    if label:
        return int(re.search(r"(\d) out of 5", label).group(1))
    return len(rating.select("i.star.full"))


counts = {}
for review in review_list.find_all("article", class_="review"):
    # The review's own rating: not one quoted in a reply nested inside it.
    own = next(
        r
        for r in review.find_all(class_="rating")
        if r.find_parent("article") is review and r.find_parent("blockquote") is None
    )
    key = str(stars(own))
    counts[key] = counts.get(key, 0) + 1
print(json.dumps({"status": "ok", "answer": counts}))
