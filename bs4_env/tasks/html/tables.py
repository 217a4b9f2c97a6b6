"""Table markup helpers shared by the ``tables`` archetypes and their limitation twins.

Cells are generated as plain texts first (the truth) and then rendered with realistic
markup noise: padding whitespace and newlines, ``&nbsp;`` between words, entities, links
and split ``<span>`` pairs whose text only reads correctly when joined with a space.
Every rendering keeps ``" ".join(get_text().split())`` equal to the plain text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import sample, token


@dataclass(frozen=True)
class Column:
    header: str
    make: Callable[[Random], str]
    numeric: bool = False


def _qty(rng: Random) -> str:
    return str(rng.randint(0, 480))


def _weight(rng: Random) -> str:
    return f"{rng.randint(2, 400) / 10:.1f} kg"


COLUMNS: tuple[Column, ...] = (
    Column("Product", pools.product_name),
    Column("SKU", pools.sku),
    Column("Price", pools.price, numeric=True),
    Column("Stock", _qty, numeric=True),
    Column("Supplier", lambda rng: rng.choice(pools.COMPANIES)),
    Column("City", lambda rng: rng.choice(pools.CITIES)),
    Column("Contact", pools.person_name),
    Column("Department", lambda rng: rng.choice(pools.DEPARTMENTS)),
    Column("Updated", pools.date_iso),
    Column("Rating", lambda rng: f"{rng.randint(10, 50) / 10:.1f}"),
    Column("Weight", _weight),
    Column("Status", lambda rng: rng.choice(("In stock", "Backorder", "Pre-order", "Sold out"))),
    Column("Lead time", lambda rng: f"{rng.randint(1, 45)} days"),
)

_SUBJECTS = (
    "Supplier price list",
    "Warehouse stock",
    "Regional inventory",
    "Spring catalogue",
    "Clearance items",
    "Store transfers",
    "Purchase orders",
    "Returns summary",
    "Vendor scorecard",
    "Restock plan",
    "Showroom samples",
    "Wholesale quotes",
)
_QUALIFIERS = ("Q1", "Q2", "Q3", "Q4", "H1", "H2", "week 12", "week 31", "March", "October")
# A caption's year where a caption of ``captions`` shows one: the decade digits of
# ``\b(?:Q1|Q2|...) (20[12][0-9])\b``, the same matches. Written as " 20" (a literal the
# regex engine scans for fast) and a look back for the qualifier, it scans a page about 19
# times faster than the plain pattern, which tries its alternatives at every character.
_CAPTION_YEAR = re.compile(
    " 20(?:" + "|".join(rf"(?<=\b{re.escape(q)} 20)" for q in _QUALIFIERS) + r")([12][0-9])\b"
)


def captions(rng: Random, n: int) -> list[str]:
    """``n`` distinct captions; some share a subject and differ only in the period."""
    year = rng.randint(2019, 2026)
    subjects = sample(rng, _SUBJECTS, n)
    if n > 1 and rng.random() < 0.5:
        subjects[1] = subjects[0]
    quals = sample(rng, _QUALIFIERS, n)
    return [f"{subject} {qual} {year}" for subject, qual in zip(subjects, quals, strict=True)]


# A page's copies each ask for its caption year: the scan of the whole page is done once
# per page (a pure function of the text, so caching changes no output and no draw).
@functools.lru_cache(maxsize=8)
def _shared_year(page: str) -> int | None:
    """The year the captions of ``page`` share: the most common one, the earliest of a tie
    (set order is not seeded); None when the page holds no caption."""
    decades = _CAPTION_YEAR.findall(page)
    if not decades:
        return None
    return 2000 + int(min(set(decades), key=lambda d: (-decades.count(d), d)))


def page_caption(rng: Random, page: str) -> str:
    """A caption drawn as ``captions`` draws one, of the year the captions of ``page`` share
    (a fresh one when it has none), that ``page`` does not hold: for copies of blocking
    elements, so that neither wording nor year tells a copy's table from a requested one."""
    year = _shared_year(page)
    if year is None:
        year = rng.randint(2019, 2026)
    for _ in range(100):
        caption = f"{rng.choice(_SUBJECTS)} {rng.choice(_QUALIFIERS)} {year}"
        if escape(caption) not in page:
            return caption
    raise ValueError("no caption left that the page does not hold")


def pick_columns(rng: Random, n: int, first: str | None = None) -> list[Column]:
    """``n`` distinct columns, optionally starting with the one whose header is ``first``."""
    lead = [c for c in COLUMNS if c.header == first]
    rest = [c for c in COLUMNS if c.header != first]
    return lead + sample(rng, rest, n - len(lead))


def rows_for(rng: Random, columns: Sequence[Column], n: int) -> list[list[str]]:
    return [[col.make(rng) for col in columns] for _ in range(n)]


def cell_html(rng: Random, text: str, noise: float) -> str:
    """Inner HTML of a cell displaying ``text``; ``noise`` is the chance of extra markup."""
    words = text.split(" ")
    if rng.random() >= noise:
        return escape(text)
    style = rng.randrange(5)
    if style == 0:
        return f"\n    {escape(text)}\n  "
    if style == 1 and len(words) > 1:
        return "&nbsp;".join(escape(word) for word in words)
    if style == 2 and len(words) > 1:
        return (
            f'<span class="a">{escape(words[0])}</span> '
            f'<span class="b">{escape(" ".join(words[1:]))}</span>'
        )
    if style == 3 and text.startswith("$"):
        return f'<span class="currency">$</span>{escape(text[1:])}'
    if style == 3:
        return f'<a href="/item/{token(rng, 6)}">{escape(text)}</a>'
    return f"<span>{escape(text)}</span> "


def header_html(rng: Random, text: str, noise: float) -> str:
    """Header markup: its stripped, whitespace-collapsed text is ``text``."""
    if rng.random() >= noise:
        return escape(text)
    if " " in text and rng.random() < 0.5:
        head, tail = text.split(" ", 1)
        return f"{escape(head)} <small>{escape(tail)}</small>"
    return f'\n      <span class="th-label">{escape(text)}</span>\n    '


def table_html(
    rng: Random,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str | None = None,
    thead: bool = True,
    tbody: bool = True,
    row_headers: bool = False,
    footer: Sequence[str] | None = None,
    footer_first: bool = False,
    noise: float = 0.3,
    table_id: str | None = None,
) -> str:
    """A data table; without ``thead`` the header is a first ``<tr>`` of ``<th>`` cells."""
    head_cells = "".join(f"<th>{header_html(rng, h, noise)}</th>" for h in headers)
    head_row = f"<tr>{head_cells}</tr>"
    body_rows = []
    for row in rows:
        cells = []
        for index, text in enumerate(row):
            tag = "th" if row_headers and index == 0 else "td"
            scope = ' scope="row"' if tag == "th" else ""
            cells.append(f"<{tag}{scope}>{cell_html(rng, text, noise)}</{tag}>")
        body_rows.append(f"<tr>{''.join(cells)}</tr>")
    body = "\n".join(body_rows)
    parts = [f"<caption>{escape(caption)}</caption>" if caption else ""]
    foot = ""
    if footer is not None:
        foot_cells = "".join(f"<td>{escape(text)}</td>" for text in footer)
        foot = f'<tfoot><tr class="totals">{foot_cells}</tr></tfoot>'
    if thead:
        parts.append(f"<thead>{head_row}</thead>")
        if footer_first:
            # HTML4 allowed <tfoot> before <tbody>; old CMS templates still emit it.
            parts.append(foot)
            foot = ""
        parts.append(f"<tbody>\n{body}\n</tbody>" if tbody else body)
    else:
        rest = f"{head_row}\n{body}"
        parts.append(f"<tbody>\n{rest}\n</tbody>" if tbody else rest)
    parts.append(foot)
    id_attr = f' id="{table_id}"' if table_id else ""
    klass = rng.choice(("data", "table table-striped", "grid", "report-table"))
    return f'<table class="{klass}"{id_attr}>\n' + "\n".join(p for p in parts if p) + "\n</table>"


def layout_table(rng: Random) -> str:
    """An old-style layout table (no data) that a ``find("table")`` shortcut would hit."""
    return (
        '<table class="layout" role="presentation" width="100%" cellpadding="0"><tr>'
        f'<td valign="top"><img src="/static/img/{token(rng, 8)}.png" alt=""></td>'
        f"<td><b>{escape(pools.sentence(rng, 4))}</b><br>{escape(pools.sentence(rng, 10))}</td>"
        f'<td align="right"><a href="/promo/{token(rng, 5)}">Learn more</a></td></tr></table>'
    )


def titled(rng: Random, caption: str, table: str, tag: str | None = None) -> str:
    """A heading above the table (``tag`` None means the caption is inside the table)."""
    if tag is None:
        return f'<section class="table-block">{table}</section>'
    intro = (
        f"<p>{escape(pools.sentence(rng, rng.randint(6, 12)))}</p>" if rng.random() < 0.5 else ""
    )
    return (
        f'<section class="table-block"><{tag} class="section-title">{escape(caption)}</{tag}>'
        f"{intro}\n{table}</section>"
    )


def money_total(values: Sequence[str]) -> str:
    cents = sum(round(float(v.lstrip("$")) * 100) for v in values)
    return f"${cents // 100}.{cents % 100:02d}"


def totals_row(columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> list[str]:
    """A footer row: a label in the first cell, sums under numeric columns."""
    out = []
    for index, col in enumerate(columns):
        values = [row[index] for row in rows]
        if index == 0:
            out.append("Total")
        elif col.numeric and values[0].startswith("$"):
            out.append(money_total(values))
        elif col.numeric:
            out.append(str(sum(int(v) for v in values)))
        else:
            out.append("")
    return out


def _days(rng: Random) -> str:
    return f"{rng.randint(1, 45)} days"


# Near-duplicate header pairs: a substring or prefix match on the header picks both.
COLUMN_PAIRS: tuple[tuple[Column, Column], ...] = (
    (Column("Price", pools.price, True), Column("Price (old)", pools.price, True)),
    (Column("Amount", pools.price, True), Column("Amount (old)", pools.price, True)),
    (Column("Price", pools.price, True), Column("Price incl. VAT", pools.price, True)),
    (Column("Stock", _qty, True), Column("Stock (reserved)", _qty, True)),
    (Column("Units", _qty, True), Column("Units returned", _qty, True)),
    (Column("Lead time", _days), Column("Lead time (max)", _days)),
    (Column("Updated", pools.date_iso), Column("Updated (previous)", pools.date_iso)),
)


def column_pair(rng: Random) -> tuple[Column, Column]:
    """(asked column, its near-duplicate decoy), in either direction."""
    first, second = rng.choice(COLUMN_PAIRS)
    return (first, second) if rng.random() < 0.5 else (second, first)


def with_pair(rng: Random, pair: tuple[Column, Column], others: int) -> list[Column]:
    """Columns that include both of ``pair`` adjacent, at a random position."""
    stems = {pair[0].header.split(" ")[0], pair[1].header.split(" ")[0]}
    pool = [c for c in COLUMNS if c.header.split(" ")[0] not in stems and c.header != "Product"]
    columns = [COLUMNS[0], *sample(rng, pool, others)]
    couple = list(pair)
    rng.shuffle(couple)
    at = rng.randint(1, len(columns))
    return columns[:at] + couple + columns[at:]


def pdf_link(rng: Random, href: str | None = None) -> str:
    target = href or f"/docs/{token(rng, 10)}.pdf"
    return f'<p class="download"><a href="{target}" download>Download the PDF</a> (A4, 2 pages)</p>'


def column_block(
    rng: Random, caption: str, pair: tuple[Column, Column]
) -> tuple[str, list[list[str]], list[str]]:
    """Markup of a titled table holding both columns of ``pair``, its rows and headers."""
    columns = with_pair(rng, pair, rng.randint(1, 3))
    headers = [col.header for col in columns]
    rows = rows_for(rng, columns, rng.randint(3, 7))
    thead = rng.random() < 0.75
    mode = rng.choice((None, "h2", "h2", "h3"))
    table = table_html(
        rng,
        headers,
        rows,
        caption=caption if mode is None else None,
        thead=thead,
        tbody=rng.random() < 0.7,
        footer=totals_row(columns, rows) if rng.random() < 0.8 else None,
        footer_first=thead and rng.random() < 0.2,
        noise=0.35,
    )
    # Solvable tables sometimes offer a PDF too, so a PDF link alone proves nothing.
    extra = pdf_link(rng) if rng.random() < 0.35 else ""
    return titled(rng, caption, table + extra, mode), rows, headers
