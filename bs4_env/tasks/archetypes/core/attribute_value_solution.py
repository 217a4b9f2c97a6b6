import json
import re

soup = make_soup()


def text_of(tag):
    return " ".join(tag.get_text().split())


def heading(title, names=("h1", "h2", "h3")):
    return next(h for h in soup.find_all(names) if text_of(h) == title)


if m := re.search(r'On the product "([^"]+)", what is the href of its "([^"]+)" link', QUERY):
    block = heading(m.group(1)).find_parent("section")
    link = next(a for a in block.find_all("a", href=True) if text_of(a) == m.group(2))
    value = link["href"]
elif m := re.search(r'product card for "([^"]+)" in the product grid', QUERY):
    grid = soup.find(class_="product-grid")
    card = heading(m.group(1)).find_parent(class_="product-card")
    assert grid in card.parents
    value = card["data-sku"]
elif m := re.search(r'hero image of the article "([^"]+)"', QUERY):
    article = heading(m.group(1)).find_parent("article")
    value = article.select_one("figure.hero img")["src"]
else:
    title = re.search(r'publication date of the post "([^"]+)"', QUERY).group(1)
    article = heading(title).find_parent("article")
    value = article.select_one(".published time")["datetime"]
print(json.dumps({"status": "ok", "answer": value}))
