import json
import re

soup = make_soup()
caption = re.search(r'titled "([^"]+)"', QUERY).group(1)
heading = soup.find(lambda tag: tag.name in ("h2", "h3") and tag.get_text(strip=True) == caption)
block = heading.find_next_sibling()
if block.name == "table":
    headers = [th.get_text(strip=True) for th in block.find("thead").find_all("th")]
    rows = [
        dict(zip(headers, [td.get_text(strip=True) for td in tr.find_all("td")]))
        for tr in block.find("tbody").find_all("tr")
    ]
    print(json.dumps({"status": "ok", "answer": rows}))
else:
    evidence = f'<div id="{block.get("id")}" data-endpoint="{block.get("data-endpoint")}"> is empty'
    print(json.dumps({"status": "limit", "limit": {"reason": "js_rendered", "evidence": evidence}}))
