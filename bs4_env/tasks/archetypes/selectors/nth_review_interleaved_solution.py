import json
import re

soup = make_soup()
title, nth = re.search(r'In the "([^"]+)" section, who wrote the (\d+)\w\w review', QUERY).groups()


def text_of(tag):
    return " ".join(tag.get_text().split())


# The heading text alone can repeat (a reviews widget elsewhere): take the section with reviews.
headings = [h for h in soup.find_all(["h2", "h3"]) if text_of(h) == title]
section = next(s for s in (h.find_parent("section") for h in headings) if s and s.select(".review"))
# Ads and promo cards sit between the reviews: count only elements classed "review".
review = section.select_one(f".review-list > :nth-child({nth} of .review)")
author = text_of(review.select_one(".review-author"))
stars = text_of(review.select_one(".stars")).count("★")
print(json.dumps({"status": "ok", "answer": {"author": author, "stars": stars}}))
