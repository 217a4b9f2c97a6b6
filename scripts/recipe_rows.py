"""Candidate rows from hhursev/recipe-scrapers' test pages (used by ``build_real_rows.py``).

Each page ``tests/test_data/<host>/<name>.testhtml`` has ``<name>.json``, the output the
project's scraper for that site must give. A label becomes a row only when it is on the page
as served (the project's loader decodes it): a text is found in the page's text or its
JSON-LD after entity unescaping, whitespace folding and case folding (every item, for a
list); minutes are found as an ISO 8601 duration or as written minutes and hours; a rating as
a number on the page. Pages whose JSON-LD holds two recipes (the request would be ambiguous)
give no rows.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from bs4_env.pages.decode import decode_page
from bs4_env.real.families import RECIPE_REPO

SPACE = re.compile(r"\s+")
TAG = re.compile(r"<[^>]*>")
JSON_LD = re.compile(
    r"<script[^>]*application/ld\+json[^>]*>(.*?)</script>", re.IGNORECASE | re.DOTALL
)
ISO_DURATION = re.compile(
    r"\bP(?:(\d+)D)?T?(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+)S)?\b", re.IGNORECASE
)
HOURS_MINUTES = re.compile(
    r"(\d+)\s*(?:hours?|hrs?|h)\b\.?,?\s*(?:and\s*)?(\d+)\s*(?:minutes?|mins?)\b"
    r"|(\d+)\s*(?:hours?|hrs?)\b|(\d+)\s*(?:minutes?|mins?)\b",
    re.IGNORECASE,
)
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
SERVINGS = re.compile(r"^(\d+) servings?$")
TEXT = {"kind": "text", "casefold": True}
DECIMAL = {"kind": "decimal", "decimal_separator": "."}
MAX_ITEM_CHARS = 1_500
"""Longer steps are left out (a normaliser reads strings of at most 2,000 characters)."""


def fold(text: str) -> str:
    return SPACE.sub(" ", html.unescape(text)).strip().casefold()


def json_ld(page: str) -> list[Any]:
    """The page's JSON-LD blocks that parse (others are skipped: a page may hold broken ones)."""
    blocks = []
    for body in JSON_LD.findall(page):
        try:
            blocks.append(json.loads(body, strict=False))
        except ValueError:
            continue
    return blocks


def strings_of(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_of(item)


def recipes_in(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        kind = value.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        if "Recipe" in kinds:
            yield value
        for item in value.values():
            yield from recipes_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from recipes_in(item)


def searchable(page: str, blocks: list[Any]) -> str:
    """Folded page text, attribute values and JSON-LD strings, where a label is looked for."""
    attributes = " ".join(re.findall(r'content="([^"]*)"', page))
    decoded = " ".join(html.unescape(TAG.sub(" ", s)) for s in strings_of(blocks))
    return fold(TAG.sub(" ", page) + " " + attributes + " " + decoded)


def on_page(text: str, haystack: str) -> bool:
    needle = fold(text)
    return bool(needle) and needle in haystack


def minutes_shown(minutes: int, page: str) -> bool:
    """Whether ``minutes`` is on the page as an ISO duration or as written time."""
    for days, hours, mins, _secs in ISO_DURATION.findall(page):
        if not (days or hours or mins):
            continue
        total = int(days or 0) * 1440 + float(hours or 0) * 60 + float(mins or 0)
        if total == minutes:
            return True
    for found in HOURS_MINUTES.finditer(TAG.sub(" ", page)):
        hours, mins, only_hours, only_mins = found.groups()
        written = int(hours or only_hours or 0) * 60 + int(mins or only_mins or 0)
        if written == minutes:
            return True
    return False


def number_shown(value: Decimal, page: str) -> bool:
    for token in NUMBER.findall(page):
        try:
            if Decimal(token.replace(",", ".")) == value:
                return True
        except InvalidOperation:
            continue
    return False


def plain_number(value: object) -> str | None:
    """A label number as a plain decimal string ("45", "4.8"), or None for none."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    text = format(Decimal(str(value)).normalize(), "f")
    return text


def recipe_rows(root: Path, page_fields: Any) -> Iterator[dict[str, Any]]:
    """Candidate rows of every page (``page_fields`` is the builder's page identity maker)."""
    for label_path in sorted((root / "tests" / "test_data").glob("*/*.json")):
        page_path = label_path.with_suffix(".testhtml")
        if not page_path.is_file():
            continue
        yield from page_rows(root, label_path, page_path, page_fields)


def page_rows(
    root: Path, label_path: Path, page_path: Path, page_fields: Any
) -> Iterator[dict[str, Any]]:
    labels = json.loads(label_path.read_text(encoding="utf-8"))
    raw = page_path.read_bytes()
    page = decode_page(raw).text
    blocks = json_ld(page)
    names = {fold(str(r.get("name", ""))) for b in blocks for r in recipes_in(b)}
    if len(names) > 1:
        return  # two recipes on one page: "the recipe" would be ambiguous
    path = page_path.relative_to(root).as_posix()
    url = labels.get("canonical_url") or f"https://{labels.get('host', page_path.parent.name)}/"
    base = page_fields(RECIPE_REPO, path, raw, page, url)
    base["host"] = page_path.parent.name
    haystack = searchable(page, blocks)
    title = labels.get("title")
    title_ok = isinstance(title, str) and on_page(title, haystack)
    if title_ok:
        yield {**base, "family": "recipe_title", "answer": SPACE.sub(" ", title).strip(),
               "normalization": TEXT}  # fmt: skip
    author = labels.get("author")
    author_ok = isinstance(author, str) and on_page(author, haystack)
    if author_ok:
        yield {**base, "family": "recipe_author", "answer": SPACE.sub(" ", author).strip(),
               "normalization": TEXT}  # fmt: skip
    for family, key in (("recipe_ingredients", "ingredients"), ("recipe_instructions",
                                                                 "instructions_list")):  # fmt: skip
        items = labels.get(key)
        if not isinstance(items, list) or not items:
            continue
        items = [SPACE.sub(" ", str(item)).strip() for item in items]
        if all(0 < len(item) <= MAX_ITEM_CHARS and on_page(item, haystack) for item in items):
            norm = {"kind": "list", "item": TEXT, "ordered": True}
            yield {**base, "family": family, "answer": [items], "normalization": norm}
    servings = SERVINGS.match(str(labels.get("yields", "")))
    if servings and servings_shown(servings.group(1), haystack):
        yield {**base, "family": "recipe_yields", "answer": servings.group(1),
               "normalization": DECIMAL}  # fmt: skip
    total = plain_number(labels.get("total_time"))
    total_ok = total is not None and minutes_shown(int(Decimal(total)), page)
    if total_ok and Decimal(total) == int(Decimal(total)):
        yield {**base, "family": "recipe_total_time", "answer": total, "normalization": DECIMAL}
    rating = plain_number(labels.get("ratings"))
    rating_ok = rating is not None and number_shown(Decimal(rating), page)
    if rating_ok:
        yield {**base, "family": "recipe_rating", "answer": rating, "normalization": DECIMAL}
    if title_ok and author_ok and total_ok and rating_ok:
        card = {"title": SPACE.sub(" ", str(title)).strip(),
                "author": SPACE.sub(" ", str(author)).strip(),
                "total_minutes": total, "rating": rating}  # fmt: skip
        fields = {"title": TEXT, "author": TEXT, "total_minutes": DECIMAL, "rating": DECIMAL}
        norm = {"kind": "record", "fields": fields}
        yield {**base, "family": "recipe_card", "answer": card, "normalization": norm}


def servings_shown(count: str, haystack: str) -> bool:
    """The number of servings written beside a word that says so (JSON-LD included)."""
    patterns = (
        rf"\b(?:serves|servings|serving|yield|yields|makes|portions)\s*:?\s*{count}\b",
        rf"\b{count}\s*(?:servings?|portions?|people|persons?)\b",
        rf'"recipeyield"\s*:\s*\[?\s*"?{count}\b',
    )
    return any(re.search(pattern, haystack) for pattern in patterns)
