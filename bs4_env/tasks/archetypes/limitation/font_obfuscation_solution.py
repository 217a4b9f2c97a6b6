import json
import re

soup = make_soup()
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


def text(tag):
    return " ".join(tag.get_text().split())


def is_hidden(tag):
    for node in [tag, *tag.parents]:
        style = (node.get("style") or "").replace(" ", "").lower()
        if "display:none" in style or node.has_attr("hidden") or node.get("aria-hidden") == "true":
            return True
    return False


if "featured product" in QUERY:
    name = re.search(r'featured product "([^"]+)"', QUERY).group(1)
    title = next(h for h in soup.find_all(["h1", "h2"]) if text(h) == name and not is_hidden(h))
    block = title
    while block.find(class_="price-box") is None:
        block = block.parent
    value = next(
        p
        for p in block.find(class_="price-box").select(".price.current")
        if not is_hidden(p) and p.find_parent(["s", "del"]) is None
    )
else:
    store = re.search(r'store "([^"]+)"', QUERY).group(1)
    heading = next(h for h in soup.find_all(["h1", "h2"]) if text(h) == store)
    value = heading.parent.find("dt", string="Customer service").find_next_sibling("dd")

# Icon-font glyphs are private-use characters too: what remains must hold the digits.
shown = " ".join(PRIVATE_USE.sub("", text(value)).split())
if re.search(r"\d", shown):
    print(json.dumps({"status": "ok", "answer": shown}))
else:
    element = value if value.get("id") else value.find(id=True)
    family = re.search(r"font-family:\s*'([^']+)'", element.get("style", ""))
    for css in soup.find_all("style"):
        for klass in element.get("class", []):
            rule = re.search(r"\." + re.escape(klass) + r"\{font-family:'([^']+)'", css.text)
            family = family or rule
    glyphs = "".join(f"U+{ord(ch):04X} " for ch in PRIVATE_USE.findall(text(element))[:3])
    evidence = f'<{element.name} id="{element["id"]}"> holds private-use glyphs ({glyphs.strip()})'
    if family:
        evidence += f", drawn as digits by the font '{family.group(1)}'"
    limit = {"reason": "font_obfuscation", "evidence": evidence}
    print(json.dumps({"status": "limit", "limit": limit}))
