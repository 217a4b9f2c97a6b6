"""A small bring-your-own rows file (pages written beside it) for the end-to-end tests: one row
per kind of label (decimal with a declared separator, text, a date inside a datetime, null),
each with its own request so that the scripted server can tell their prompts apart."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

SHOP = """<!DOCTYPE html><html><head><meta charset="windows-1252">
<title>Eichentisch | Möbelhaus</title>
<script type="application/ld+json">{"@type": "Product", "name": "Eichentisch",
 "offers": {"@type": "Offer", "price": "1299.00", "priceCurrency": "EUR"}}</script></head>
<body><h1>Eichentisch „Müritz“</h1><p class="price">1.299,00 €</p>
<p class="old-price">1.499,00 €</p></body></html>"""
ARTICLE = """<html><head><meta property="og:title" content="Grüne Brücke eröffnet">
<title>Grüne Brücke eröffnet – Stadtblatt</title></head><body><article>
<h1>Grüne Brücke eröffnet</h1><p class="byline">Von Jana Koch</p>
<time datetime="2024-03-05T10:00:00+01:00">5. März 2024</time>
<p>Die Brücke ist offen.</p></article></body></html>"""


def write_byo_rows(folder: Path, copies: int = 1) -> Path:
    """The rows file (and its two page files) in ``folder``; returns the rows file.

    ``copies`` > 1 appends the rows again, ``copies - 1`` times: copy ``k`` (from 1) has the
    id ``copy<k>/<id>`` and its request ends in `` (copy k)``, so that its prompt differs
    (the scripted server finds a task by its prompt) and one run can play another policy on
    each copy of every row."""
    if copies < 1:
        raise ValueError(f"copies must be at least 1, not {copies}")
    pages = {
        "shop.html": SHOP.encode("utf-8"),
        "article.html.gz": gzip.compress(ARTICLE.encode("utf-8"), mtime=0),
    }
    for name, raw in pages.items():
        (folder / name).write_bytes(raw)
    sha = {name: hashlib.sha256(raw).hexdigest() for name, raw in pages.items()}
    rows = [
        {"id": "shop/price", "family": "product_price", "html_path": "shop.html",
         "sha256": sha["shop.html"], "request": "The table's current price, number only.",
         "answer": "1299", "normalization": {"kind": "decimal", "decimal_separator": ","}},
        {"id": "shop/gtin", "family": "product_gtin", "html_path": "shop.html",
         "sha256": sha["shop.html"], "request": "The table's EAN barcode, digits only.",
         "answer": None},
        {"id": "news/title", "family": "article_title", "html_path": "article.html.gz",
         "sha256": sha["article.html.gz"], "request": "The article's headline.",
         "answer": "Grüne Brücke eröffnet"},
        {"id": "news/date", "family": "article_date", "html": ARTICLE,
         "request": "When the article was published (ISO date).", "answer": "2024-03-05",
         "normalization": "date"},
    ]  # fmt: skip
    rows += [
        {**row, "id": f"copy{k}/{row['id']}", "request": f"{row['request']} (copy {k})"}
        for k in range(1, copies)
        for row in rows
    ]
    path = folder / "rows.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path
