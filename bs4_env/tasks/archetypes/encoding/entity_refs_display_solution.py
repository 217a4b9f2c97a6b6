import json
import re

soup = make_soup()
sku = re.search(r'item number "([^"]+)"', QUERY).group(1)

# BeautifulSoup has decoded every character reference once: no html.unescape afterwards.
line = soup.find("p", class_="item-no", string=f"Item no. {sku}")
card = line.find_parent(class_="menu-item")
if "alt text" in QUERY:
    answer = card.find("img")["alt"]
else:
    answer = " ".join(card.find(class_="title").get_text().split())
print(json.dumps({"status": "ok", "answer": answer}))
