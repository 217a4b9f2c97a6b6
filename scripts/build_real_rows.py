"""Build ``bs4_env/real/data/real.jsonl``: the ``real`` rows from the two pinned benchmarks.

    python scripts/build_real_rows.py --unpacked /tmp/real-pages [--check]

``--unpacked`` holds the archives of ../shared/real-pages unpacked (``tar -xJf``). One fact per
row (product price, sku, brand, gtin; article title, author, date), the benchmark's labels as
accepted values, kept only when the label is on the page as served (static HTML, decoded by
the project's loader), the page is under the size cap, and no accepted value occurs in the
prompt. Selection is deterministic (rows ordered by a hash of family and page), so rerunning
gives the same file; ``--check`` fails if the committed file differs.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import hashlib
import html
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bs4_env.episode.prompt import SYSTEM_PROMPT
from bs4_env.pages.accepted import default_answer_schema
from bs4_env.pages.decode import decode_page
from bs4_env.pages.normalizers import parse_normalization
from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES, NEUTRAL_URL
from bs4_env.pages.sets import REAL_ROWS
from bs4_env.real.families import ARTICLE_REPO, FAMILIES, PRODUCT_REPO, Upstream

QUOTAS = {
    "product_price": 60,
    "product_sku": 60,
    "product_brand": 50,
    "product_gtin": 20,
    "article_title": 60,
    "article_author": 60,
    "article_date": 60,
}
CAP = DEFAULT_MAX_PAGE_BYTES
SAFE_NAME = re.compile(r"[A-Za-z0-9._-]+")
NUMBER_TOKEN = re.compile(r"\d[\d.,'\u00a0\u202f ]*\d|\d")
TAG = re.compile(r"<[^>]*>")
SPACE = re.compile(r"\s+")
MONTHS_EN = "january february march april may june july august september october november december"
MONTHS_DE = "januar februar märz april mai juni juli august september oktober november dezember"


def flat_text(page: str) -> str:
    """Tags dropped, entities decoded, whitespace collapsed: good enough to find a label
    (attribute values such as meta content and JSON-LD stay in, as they are on the page)."""
    attributes = " ".join(re.findall(r'content="([^"]*)"', page))
    return SPACE.sub(" ", html.unescape(TAG.sub(" ", page) + " " + attributes)).casefold()


def separator_for(price: str, page: str) -> str | None:
    """The decimal mark with which the page shows ``price`` (None: not shown); "," when the
    page writes it so anywhere (often beside a "." copy in its metadata), so that "1.299"
    (thousands) reads as the page means it."""
    found = set()
    for kind in (".", ","):
        rule = parse_normalization({"kind": "decimal", "decimal_separator": kind}, "", "")
        label = rule.canonical(price)
        for token in NUMBER_TOKEN.findall(page):
            if rule.canonical(token) == label and (kind in token or kind == "."):
                found.add(kind)
    if not found:
        return None
    return "," if "," in found else "."


def date_shown(iso: str, raw: str) -> bool:
    try:
        datetime.date.fromisoformat(iso)
    except ValueError:
        return False  # a label that is no date (month 13, day 0)
    year, month, day = iso.split("-")
    m, d = int(month), int(day)
    if iso in raw:
        return True
    text = raw.casefold()
    forms = [
        f"{d:02d}.{m:02d}.{year}", f"{d}.{m}.{year}", f"{d:02d}/{m:02d}/{year}",
        f"{d}. {MONTHS_DE.split()[m - 1]} {year}", f"{d} {MONTHS_EN.split()[m - 1]} {year}",
        f"{MONTHS_EN.split()[m - 1]} {d}, {year}", f"{year}/{m:02d}/{d:02d}",
    ]  # fmt: skip
    return any(form in text for form in forms)


def gtin_forms(gtin: str) -> list[str]:
    """The label and its zero-padded GTIN-12/13/14 spellings (one barcode, several widths)."""
    core = gtin.lstrip("0")
    return list(dict.fromkeys([gtin, *(core.zfill(n) for n in (12, 13, 14) if n >= len(core))]))


def page_fields(upstream: Upstream, path: str, raw: bytes, page: str, url: str) -> dict[str, Any]:
    """What every row of one page carries: its upstream file, hash, URL, licence and size."""
    return {
        "size": len(page.encode("utf-8")),
        "source": {"repo": upstream.repo, "commit": upstream.commit, "path": path},
        "sha256": hashlib.sha256(raw).hexdigest(),
        "url": url,
        "license": upstream.license,
    }


def product_rows(root: Path) -> Iterator[dict[str, Any]]:
    truth = json.loads((root / "dataset" / "ground-truth.json").read_text(encoding="utf-8"))
    for key, labels in sorted(truth.items()):
        path = f"dataset/html/{key}.html.gz"
        raw = (root / path).read_bytes()
        page = decode_page(gzip.decompress(raw)).text
        base = page_fields(PRODUCT_REPO, path, raw, page, labels["url"])
        text = flat_text(page)
        prices = [p.strip() for p in labels.get("price", [])]
        if prices:
            separators = {separator_for(p, page) for p in prices}
            if None not in separators and len(separators) == 1:
                norm = {"kind": "decimal", "decimal_separator": separators.pop()}
                yield {**base, "family": "product_price", "answer": prices, "normalization": norm}
        skus = labels.get("sku", [])
        if skus and all(sku.casefold() in text for sku in skus):
            yield {**base, "family": "product_sku", "answer": skus}
        brands = labels.get("brand", [])
        if brands and all(brand.casefold() in text for brand in brands):
            norm = {"kind": "text", "casefold": True}
            yield {**base, "family": "product_brand", "answer": brands, "normalization": norm}
        gtins = labels.get("gtin", [])
        if gtins and all(gtin in page for gtin in gtins):
            forms = [form for gtin in gtins for form in gtin_forms(gtin)]
            yield {**base, "family": "product_gtin", "answer": forms}


def article_rows(root: Path) -> Iterator[dict[str, Any]]:
    data = json.loads((root / "tests" / "evaldata.json").read_text(encoding="utf-8"))
    for url, labels in sorted(data.items()):
        name = labels["file"]
        folder = "cache" if (root / "tests" / "cache" / name).is_file() else "eval"
        path = f"tests/{folder}/{name}"
        if not SAFE_NAME.fullmatch(name):
            continue
        raw = (root / path).read_bytes()
        page = decode_page(raw).text
        text = flat_text(page)
        base = page_fields(ARTICLE_REPO, path, raw, page, url)
        title = SPACE.sub(" ", labels.get("title", "")).strip()
        if title and title.casefold() in text:
            yield {**base, "family": "article_title", "answer": title}
        author = labels.get("author", "")
        # Four labels list several authors apart: no one string to ask for, left out.
        author = SPACE.sub(" ", author).strip() if isinstance(author, str) else ""
        if author and author.casefold() in text:
            norm = {"kind": "text", "casefold": True}
            yield {**base, "family": "article_author", "answer": author, "normalization": norm}
        date = labels.get("date", "")
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) and date_shown(date, page):
            yield {**base, "family": "article_date", "answer": date, "normalization": "date"}


def leaks(row: dict[str, Any]) -> bool:
    """Whether an accepted value occurs in the prompt the row's task shows (URL included)."""
    family = FAMILIES[row["family"]]
    kind = row.get("normalization", "text")
    kind = kind if isinstance(kind, str) else kind["kind"]
    prompt = (
        f"{SYSTEM_PROMPT}\nPage: {NEUTRAL_URL}\n\nRequest: {family.request}\n\n"
        f"Answer shape: {default_answer_schema(kind)}"
    ).casefold()
    values = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
    return any(str(value).casefold() in prompt for value in values)


def finished(row: dict[str, Any]) -> dict[str, Any]:
    """The row as shipped: id, request and accepted answers first, then the page's identity."""
    family = FAMILIES[row["family"]]
    page_key = Path(row["source"]["path"]).name.split(".html")[0]
    answer = row["answer"]
    out: dict[str, Any] = {
        "id": f"{row['family']}/{page_key}",
        "family": row["family"],
        "request": family.request,
        "answer": {"any_of": answer} if isinstance(answer, list) and len(answer) > 1 else (
            answer[0] if isinstance(answer, list) else answer),
    }  # fmt: skip
    if "normalization" in row:
        out["normalization"] = row["normalization"]
    out.update({k: row[k] for k in ("source", "sha256", "url", "license")})
    return out


def build(unpacked: Path) -> list[dict[str, Any]]:
    products = next(unpacked.glob("product-extraction-benchmark-*"))
    articles = next(unpacked.glob("trafilatura-*"))
    candidates = [*product_rows(products), *article_rows(articles)]
    chosen: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    order = sorted(
        candidates,
        key=lambda r: hashlib.sha256(f"{r['family']}|{r['source']['path']}".encode()).hexdigest(),
    )
    for row in order:
        if counts[row["family"]] >= QUOTAS[row["family"]] or leaks(row) or row["size"] > CAP:
            continue
        counts[row["family"]] += 1
        chosen.append(finished(row))
    print("candidates:", dict(Counter(r["family"] for r in candidates)), file=sys.stderr)
    print("chosen:", dict(counts), "total", len(chosen), file=sys.stderr)
    by_family = sorted(chosen, key=lambda r: (list(QUOTAS).index(r["family"]), r["id"]))
    return by_family


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--unpacked", type=Path, required=True)
    parser.add_argument("--output", type=Path, default=REAL_ROWS)
    parser.add_argument("--check", action="store_true", help="fail if the file would change")
    args = parser.parse_args()
    rows = build(args.unpacked)
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    if args.check:
        same = args.output.is_file() and args.output.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{args.output} is out of date", file=sys.stderr)
        return 0 if same else 1
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {len(rows)} rows to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
