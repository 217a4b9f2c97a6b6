# ruff: noqa: F821
# The generic reference program of the real-page families (run in the sandbox, where HTML,
# QUERY and make_soup are given; ``FAMILY`` is set by a first line the policy adds). It knows
# no site: structured metadata first (JSON-LD, microdata, meta tags), then visible elements
# (classes, labels, the first heading). It prints the final JSON answer.
import json
import re

soup = make_soup("lxml")
NUMBER = re.compile(r"\d[\d.,'\u00a0\u202f ]*\d|\d")
SPACE = re.compile(r"\s+")


def clean(text):
    return SPACE.sub(" ", str(text)).strip() if text is not None else ""


def json_ld_objects():
    """Every JSON object in the page's JSON-LD blocks, nested ones and @graph members too."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            found.append(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for script in soup.find_all("script", type=re.compile("ld\\+json", re.I)):
        try:
            walk(json.loads(script.string or "", strict=False))
        except ValueError:
            continue
    return found


def of_type(names):
    def typed(obj):
        kind = obj.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        return any(isinstance(k, str) and k.lower() in names for k in kinds)

    return [obj for obj in json_ld_objects() if typed(obj)]


def meta(*names):
    for name in names:
        for attr in ("property", "name", "itemprop"):
            tag = soup.find("meta", attrs={attr: re.compile(f"^{re.escape(name)}$", re.I)})
            if tag and clean(tag.get("content")):
                return clean(tag.get("content"))
    return ""


def itemprop(name):
    for tag in soup.find_all(attrs={"itemprop": re.compile(f"^{name}$", re.I)}):
        value = tag.get("content") or tag.get("value") or tag.get_text(" ", strip=True)
        if clean(value):
            return clean(value)
    return ""


def name_of(value):
    if isinstance(value, dict):
        return clean(value.get("name"))
    if isinstance(value, list) and value:
        return name_of(value[0])
    return clean(value) if isinstance(value, str) else ""


def visible_text():
    hidden = {"script", "style", "noscript", "template"}
    return clean(" ".join(s for s in soup.find_all(string=True) if s.parent.name not in hidden))


def labelled(labels, value_pattern):
    pattern = f"(?:{labels})\\s*[:#.]?\\s*({value_pattern})"
    found = re.search(pattern, visible_text(), re.I)
    return found.group(1) if found else ""


def by_class(word, avoid=()):
    pattern = re.compile(word, re.I)
    for tag in soup.find_all(class_=pattern):
        classes = " ".join(tag.get("class", []))
        if any(bad in classes.lower() for bad in avoid):
            continue
        text = clean(tag.get_text(" "))
        if text:
            return text
    return ""


def product_offer_price():
    for product in of_type({"product"}):
        offers = product.get("offers")
        for offer in offers if isinstance(offers, list) else [offers]:
            if isinstance(offer, dict):
                spec = offer.get("priceSpecification")
                spec = spec[0] if isinstance(spec, list) and spec else spec
                for value in (
                    offer.get("price"),
                    offer.get("lowPrice"),
                    spec.get("price") if isinstance(spec, dict) else None,
                ):
                    if value not in (None, ""):
                        return clean(value)
    return ""


def price():
    found = (
        product_offer_price()
        or meta("product:price:amount", "og:price:amount")
        or itemprop("price")
    )
    if not found:
        text = by_class("price", avoid=("old", "was", "strike", "regular", "list", "before"))
        match = NUMBER.search(text)
        found = match.group(0) if match else ""
    return found or None


def sku():
    for product in of_type({"product"}):
        for key in ("sku", "productID"):
            if clean(product.get(key)):
                return clean(product.get(key))
    found = itemprop("sku") or meta("product:retailer_item_id")
    asin = soup.find("input", attrs={"name": "ASIN"})
    if not found and asin is not None and asin.get("value"):
        found = clean(asin.get("value"))
    labels = (
        "SKU|ASIN|Item (?:number|no)|Article (?:number|no)|Product code|Art\\.?-?Nr"
        "|Artikelnummer|Model (?:number|no)"
    )
    return found or labelled(labels, "[A-Z0-9][A-Z0-9./-]{2,}") or None


def brand():
    for product in of_type({"product"}):
        if name_of(product.get("brand")):
            return name_of(product.get("brand"))
    tag = soup.find(attrs={"itemprop": re.compile("^brand$", re.I)})
    if tag is not None:
        inner = tag.find(attrs={"itemprop": "name"})
        value = tag.get("content") or (
            inner.get("content") or inner.get_text(" ") if inner else tag.get_text(" ")
        )
        if clean(value):
            return clean(value)
    named = by_class("brand")
    return (
        meta("product:brand", "og:brand", "brand")
        or (named if len(named) <= 40 else "")
        or labelled("Brand|Marke|Marque|Marca", "[^|:]{2,40}?(?= [A-Z][a-z]+:|$)")
        or None
    )


def gtin():
    keys = ("gtin13", "gtin", "gtin12", "gtin14", "gtin8", "ean")
    for product in of_type({"product"}):
        for key in keys:
            if clean(product.get(key)):
                return clean(product.get(key))
    for key in keys:
        if itemprop(key):
            return itemprop(key)
    return (
        meta("product:ean", "product:upc") or labelled("EAN|GTIN|UPC|Barcode", "\\d{8,14}") or None
    )


ARTICLES = {"article", "newsarticle", "blogposting", "reportagenewsarticle", "webpage"}


def first_heading():
    for scope in (soup.find("article"), soup):
        heading = scope.find("h1") if scope is not None else None
        if heading is not None and clean(heading.get_text(" ")):
            return clean(heading.get_text(" "))
    return ""


def title():
    headline = next(
        (clean(a.get("headline")) for a in of_type(ARTICLES) if clean(a.get("headline"))), ""
    )
    headline = headline or meta("og:title", "twitter:title")
    heading = first_heading()
    if headline and heading and headline != heading and headline.startswith(heading):
        return heading  # the metadata title with the site's name added
    if headline or heading:
        return headline or heading
    return clean(soup.title.string).split(" | ")[0] if soup.title and soup.title.string else None


BYLINE_LEAD = re.compile(
    r"^(?:(?:posted|written|published|veröffentlicht|geschrieben|ein beitrag|rezept)\s+)?"
    r"(?:by|von|par|author|autor|autorin)\b\s*:?\s*",
    re.I,
)


def byline(text):
    """A byline's name: its lead-in ("By", "Veröffentlicht von") and trailing parts cut."""
    name = BYLINE_LEAD.sub("", clean(text))
    name = re.split(r"\s+[|•·]\s+|\s+-\s+\d|\s+\d{1,2}\.\s", name)[0].strip(" ,;:")
    return name if 1 < len(name) <= 80 else ""


def author():
    for article in of_type(ARTICLES):
        if name_of(article.get("author")):
            return name_of(article.get("author"))
    found = meta("author", "article:author", "parsely-author", "sailthru.author", "dc.creator")
    if found and not found.startswith("http"):
        return found
    for tag in (soup.find(attrs={"rel": "author"}), soup.find(attrs={"itemprop": "author"})):
        if tag is not None and byline(tag.get_text(" ")):
            return byline(tag.get_text(" "))
    return byline(by_class("author|byline")) or None


def iso(value):
    match = re.search(r"(\d{4})-(\d{2})-(\d{2})", value or "")
    if match:
        return match.group(0)
    match = re.search(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", value or "")
    if match:
        return f"{match.group(3)}-{int(match.group(2)):02d}-{int(match.group(1)):02d}"
    return ""


def date():
    for article in of_type(ARTICLES):
        if iso(clean(article.get("datePublished"))):
            return iso(clean(article.get("datePublished")))
    found = iso(
        meta(
            "article:published_time",
            "datePublished",
            "date",
            "pubdate",
            "publishdate",
            "dc.date.issued",
            "dcterms.date",
            "dc.date",
        )
    )
    if found:
        return found
    tag = soup.find("time", datetime=True)
    return (iso(tag["datetime"]) if tag is not None else "") or iso(visible_text()) or None


FACTS = {
    "product_price": price,
    "product_sku": sku,
    "product_brand": brand,
    "product_gtin": gtin,
    "article_title": title,
    "article_author": author,
    "article_date": date,
}
print(json.dumps({"status": "ok", "answer": FACTS[FAMILY]()}, ensure_ascii=False))
