import json
import re
from urllib.parse import urljoin

soup = make_soup()
page_url = re.search(r"opened at (\S+) \.", QUERY).group(1)
# rel is multi-valued in BeautifulSoup (a list), so match it through find(rel=...).
link = soup.find("link", rel="canonical")
print(json.dumps({"status": "ok", "answer": urljoin(page_url, link["href"])}))
