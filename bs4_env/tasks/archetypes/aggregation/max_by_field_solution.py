import json
import re

soup = make_soup()
section = re.search(r'In the "([^"]+)" listing', QUERY).group(1)
heading = next(h for h in soup.find_all("h2") if " ".join(h.get_text().split()) == section)
listing = heading.find_parent("section")


def number(text):
    return float(re.sub(r"[^\d.]", "", text))


best_name, best_value = None, None
for card in listing.select("li.card"):
    if "price" in QUERY.split("highest", 1)[1]:
        value = number(card.select_one(".price").get_text())
    else:
        value = number(card.select_one(".rating .score").get_text())
    if best_value is None or value > best_value:
        best_name = " ".join(card.select_one(".card-title").get_text().split())
        best_value = value
print(json.dumps({"status": "ok", "answer": best_name}))
