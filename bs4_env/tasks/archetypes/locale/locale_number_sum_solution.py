import json
import re

soup = make_soup()
caption = re.search(r'the table "([^"]+)"', QUERY).group(1)
header = re.search(r'sum of the "([^"]+)" column', QUERY).group(1)
decimal_comma = '"," marks decimals' in QUERY


def cents(text):
    text = text.replace("\u2212", "-")
    negative = "-" in text
    digits = re.sub(r"[^0-9.,]", "", text)  # drops currency signs and every kind of space
    # Drop the grouping character, then make the decimal mark a point.
    group, mark = (".", ",") if decimal_comma else (",", ".")
    digits = digits.replace(group, "").replace(mark, ".")
    whole, frac = digits.split(".")
    value = int(whole) * 100 + int(frac)
    return -value if negative else value


table = next(c for c in soup.find_all("caption") if c.get_text(strip=True) == caption).parent
headers = [th.get_text(strip=True) for th in table.thead.find_all("th")]
column = headers.index(header)
total = sum(cents(tr.find_all("td")[column].get_text()) for tr in table.tbody.find_all("tr"))
sign = "-" if total < 0 else ""
answer = f"{sign}{abs(total) // 100}.{abs(total) % 100:02d}"
print(json.dumps({"status": "ok", "answer": answer}))
