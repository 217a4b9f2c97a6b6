import json
import re

soup = make_soup()
heading = re.search(r'under the heading "([^"]+)"', QUERY).group(1)

MONTHS = {
    "en": "january february march april may june july august september october november december",
    "de": "januar februar märz april mai juni juli august september oktober november dezember",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre "
    "diciembre",
}
month_of = {}
for names in MONTHS.values():
    for number, name in enumerate(names.split(), 1):
        month_of[name] = number
        month_of[name[:3]] = number


def iso(text):
    text = " ".join(text.split()).lower()
    if m := re.fullmatch(r"(\d{4})年(\d{1,2})月(\d{1,2})日", text):
        y, mo, d = m.groups()
    elif m := re.fullmatch(r"(\d{1,2})[./](\d{1,2})[./](\d{4})", text):
        d, mo, y = m.groups()  # day first in every numeric style on these pages
    elif m := re.fullmatch(r"([a-zäéû]+)\.? (\d{1,2}), (\d{4})", text):
        name, d, y = m.groups()
        mo = month_of[name]
    else:
        m = re.fullmatch(r"(\d{1,2})(?:er)?\.? (?:de )?([a-zäéû]+) (?:de )?(\d{4})", text)
        d, name, y = m.groups()
        mo = month_of[name]
    return f"{int(y):04d}-{int(mo):02d}-{int(d):02d}"


title = next(h for h in soup.find_all("h2") if h.get_text(strip=True) == heading)
section = title.parent
answer = [iso(tag.get_text()) for tag in section.select(".when")]
print(json.dumps({"status": "ok", "answer": answer}))
