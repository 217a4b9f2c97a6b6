"""Build the shipped real-page rows from the three pinned benchmarks: ``real.jsonl`` (the
``real`` set), ``real2.jsonl`` (``real2``: ``real``'s rows and recipe rows) and
``real2-train.jsonl`` (``real2``'s training part: recipe pages of other sites).

    python scripts/build_real_rows.py --unpacked /tmp/real-pages [--check]

``--unpacked`` holds the archives of ../shared/real-pages unpacked (``tar -xJf``). One fact per
row (product price, sku, brand, gtin; article title, author, date; the recipe families of
``recipe_rows.py``, lists and a record among them), the benchmark's labels as
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

from bs4_env.episode.prompt import FIRST_STEP, SYSTEM_PROMPT
from bs4_env.pages.accepted import default_answer_schema
from bs4_env.pages.decode import decode_page
from bs4_env.pages.normalizers import parse_normalization
from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES, NEUTRAL_URL
from bs4_env.pages.sets import REAL2_ROWS, REAL2_TRAIN_ROWS, REAL_ROWS, host_of
from bs4_env.real.families import ARTICLE_REPO, FAMILIES, PRODUCT_REPO, Upstream

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recipe_rows import recipe_rows

QUOTAS = {
    "product_price": 60,
    "product_sku": 60,
    "product_brand": 50,
    "product_gtin": 20,
    "article_title": 60,
    "article_author": 60,
    "article_date": 60,
}
RECIPE_QUOTAS = {
    "recipe_title": 100,
    "recipe_author": 90,
    "recipe_ingredients": 110,
    "recipe_instructions": 110,
    "recipe_yields": 70,
    "recipe_total_time": 80,
    "recipe_rating": 70,
    "recipe_card": 70,
}
"""Rows of ``real2``'s evaluation part per recipe family (its training part takes every row)."""
EVAL_HOST_SHARE = 128
"""A recipe site is an evaluation site when the first byte of sha256("real2|" + host) is
below this (about half the sites); no page of it is a training page."""
RECIPE_SCHEMAS = {
    "decimal": "a number (or the number as a string), or null when the page does not give it",
    "list": "a JSON list of strings, in the page's order, or null when the page does not give it",
    "record": 'a JSON object with exactly these keys: {"title": a string; "author": a string; '
    '"total_minutes": a number; "rating": a number}, or null when the page does not give it',
}
"""The answer shape of recipe rows (with no example value in it: short numbers are labels)."""
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
    if row["family"] not in QUOTAS:
        own = (
            f"Page: {NEUTRAL_URL}\n\nRequest: {family.request}\n\n"
            f"Answer shape: {answer_schema(kind)}\n\n{FIRST_STEP}"
        ).casefold()
        # Recipe rows: no value in the row's own text (the user turn: URL, request, answer
        # shape), and none of three or more characters anywhere in the prompt (short numbers
        # such as "2" are in every prompt's numbered steps; they tell nothing about any row).
        return any(v in own or (len(v) >= 3 and v in SYSTEM_PROMPT.casefold())
                   for v in scalars(row["answer"]))  # fmt: skip
    prompt = (
        f"{SYSTEM_PROMPT}\nPage: {NEUTRAL_URL}\n\nRequest: {family.request}\n\n"
        f"Answer shape: {default_answer_schema(kind)}"
    ).casefold()
    values = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
    return any(str(value).casefold() in prompt for value in values)


def scalars(value: Any) -> list[str]:
    """Every scalar of an answer (list items, record fields), as folded strings."""
    if isinstance(value, dict):
        return [s for item in value.values() for s in scalars(item)]
    if isinstance(value, list):
        return [s for item in value for s in scalars(item)]
    return [str(value).casefold()]


def answer_schema(kind: str) -> str:
    """A recipe row's answer shape."""
    return RECIPE_SCHEMAS[kind] if kind in RECIPE_SCHEMAS else default_answer_schema(kind)


def finished(row: dict[str, Any]) -> dict[str, Any]:
    """The row as shipped: id, request and accepted answers first, then the page's identity."""
    family = FAMILIES[row["family"]]
    page_key = Path(row["source"]["path"]).name.split(".html")[0]
    if "host" in row:
        page_key = f"{row['host']}/{Path(row['source']['path']).stem}"
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
        if "host" in row and row["normalization"]["kind"] in RECIPE_SCHEMAS:
            out["answer_schema"] = RECIPE_SCHEMAS[row["normalization"]["kind"]]
    out.update({k: row[k] for k in ("source", "sha256", "url", "license")})
    return out


def by_hash(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A fixed pseudo-random order (by family and page), so quotas take the same rows."""
    return sorted(
        rows,
        key=lambda r: hashlib.sha256(f"{r['family']}|{r['source']['path']}".encode()).hexdigest(),
    )


def build(unpacked: Path) -> list[dict[str, Any]]:
    """``real``'s rows, in family order."""
    products = next(unpacked.glob("product-extraction-benchmark-*"))
    articles = next(unpacked.glob("trafilatura-*"))
    candidates = [*product_rows(products), *article_rows(articles)]
    chosen: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    for row in by_hash(candidates):
        if counts[row["family"]] >= QUOTAS[row["family"]] or leaks(row) or row["size"] > CAP:
            continue
        counts[row["family"]] += 1
        chosen.append(finished(row))
    print("candidates:", dict(Counter(r["family"] for r in candidates)), file=sys.stderr)
    print("chosen:", dict(counts), "total", len(chosen), file=sys.stderr)
    by_family = sorted(chosen, key=lambda r: (list(QUOTAS).index(r["family"]), r["id"]))
    return by_family


def eval_site(host: str) -> bool:
    return hashlib.sha256(f"real2|{host}".encode()).digest()[0] < EVAL_HOST_SHARE


def build_recipes(
    unpacked: Path, eval_hosts: set[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``real2``'s recipe rows: the evaluation part (quotas, evaluation sites) and the
    training part (every row of the other sites, none of whose host is an evaluation host)."""
    recipes = next(unpacked.glob("recipe-scrapers-*"))
    candidates = [r for r in recipe_rows(recipes, page_fields) if not leaks(r)]
    candidates = [r for r in candidates if r["size"] <= CAP]
    evaluation: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    for row in by_hash([r for r in candidates if eval_site(r["host"])]):
        if counts[row["family"]] < RECIPE_QUOTAS[row["family"]]:
            counts[row["family"]] += 1
            evaluation.append(row)
    hosts = eval_hosts | {host_of(r["url"]) for r in evaluation}
    training = [r for r in candidates if not eval_site(r["host"])]
    training = [r for r in training if host_of(r["url"]) not in hosts]
    print("recipe candidates:", dict(Counter(r["family"] for r in candidates)), file=sys.stderr)
    print("recipe eval:", dict(counts), file=sys.stderr)
    print("recipe train:", dict(Counter(r["family"] for r in training)), file=sys.stderr)
    order = list(RECIPE_QUOTAS)
    key = lambda r: (order.index(r["family"]), r["id"])  # noqa: E731
    return sorted(map(finished, evaluation), key=key), sorted(map(finished, training), key=key)


def outputs(unpacked: Path) -> dict[Path, list[dict[str, Any]]]:
    real = build(unpacked)
    recipe_eval, recipe_train = build_recipes(unpacked, {host_of(r["url"]) for r in real})
    return {REAL_ROWS: real, REAL2_ROWS: real + recipe_eval, REAL2_TRAIN_ROWS: recipe_train}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--unpacked", type=Path, required=True)
    parser.add_argument("--check", action="store_true", help="fail if a file would change")
    args = parser.parse_args()
    stale = 0
    for path, rows in outputs(args.unpacked).items():
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        if args.check:
            same = path.is_file() and path.read_text(encoding="utf-8") == text
            print(f"{path.name}: up to date" if same else f"{path} is out of date", file=sys.stderr)
            stale += not same
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {len(rows)} rows to {path}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
