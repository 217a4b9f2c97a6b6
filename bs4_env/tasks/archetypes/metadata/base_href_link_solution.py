import json
import re
from urllib.parse import urljoin

soup = make_soup()
page_url = re.search(r"opened at (\S+) \.", QUERY).group(1)
text, section = re.search(r'the link "([^"]+)" in the "([^"]+)" section', QUERY).groups()

# The document base: the first <base> that has an href, resolved against the page URL.
base = soup.find("base", href=True)
base_url = urljoin(page_url, base["href"]) if base else page_url

heading = next(h for h in soup.find_all("h2") if h.get_text(strip=True) == section)
link = next(a for a in heading.parent.find_all("a") if a.get_text(strip=True) == text)
print(json.dumps({"status": "ok", "answer": urljoin(base_url, link["href"])}))
