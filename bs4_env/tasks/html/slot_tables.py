"""Slotted layouts for tables and listings (see ``slots``): the slot is the data block.

The requested table or listing is titled by a heading whose block holds the slot; decoy
tables (often the same subject, another period) or decoy listings sit beside it in random
order, so "the first table" or "the first list" answers wrongly on any page.

A blocked page loses the requested table or listing, so it carries one more decoy of the
same kind; a solvable page carries a short notes block in its place. Both then hold the
same number of blocks and about the same amount of table or listing markup, so neither
the count of tables, rows and cards nor the count of sections tells them apart.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import feeds, listing, pools, slots
from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.html.slots import SLOT, Slotted
from bs4_env.tasks.model import Difficulty, JSONValue
from bs4_env.tasks.rng import token


def heading_block(rng: Random, caption: str) -> str:
    """The requested table's block: its titled section, the table left as ``SLOT``."""
    tag = rng.choice(("h2", "h2", "h3"))
    intro = (
        f"<p>{escape(pools.sentence(rng, rng.randint(6, 12)))}</p>" if rng.random() < 0.5 else ""
    )
    return (
        f'<section class="table-block"><{tag} class="section-title">{escape(caption)}</{tag}>'
        f"{intro}\n{SLOT}</section>"
    )


def _dict_table(rng: Random, caption: str | None) -> tuple[str, list[str], list[list[str]]]:
    """A data table (captioned when ``caption`` is given), its headers and its body rows."""
    columns = tb.pick_columns(rng, rng.randint(3, 6), first=rng.choice(("Product", "SKU", None)))
    headers = [col.header for col in columns]
    rows = tb.rows_for(rng, columns, rng.randint(2, 7))
    thead = rng.random() < 0.6
    totals = any(col.numeric for col in columns[1:]) and rng.random() < 0.8
    table = tb.table_html(
        rng,
        headers,
        rows,
        caption=caption,
        thead=thead,
        tbody=rng.random() < 0.6,
        row_headers=rng.random() < 0.3,
        footer=tb.totals_row(columns, rows) if totals else None,
        footer_first=thead and rng.random() < 0.3,
        noise=0.4,
    )
    return table, headers, rows


_NOTES = {
    "table": ("About these figures", "Notes", "How to read this report", "Methodology"),
    "listing": ("How we pick these", "About this list", "Notes", "Shipping and returns"),
}


def notes_block(rng: Random, subject: str) -> str:
    """A short titled text block (what a solvable page has where a blocked one has a decoy),
    framed like that decoy (a table block or a listing section, an ``h2`` title), so its
    classes and ids are ones both kinds of page carry."""
    title = rng.choice(_NOTES[subject])
    text = f"<p>{escape(pools.sentence(rng, rng.randint(10, 24)))}</p>"
    if subject == "table":
        return (
            f'<section class="table-block"><h2 class="section-title">{title}</h2>{text}</section>'
        )
    frame = f'<section class="listing" id="listing-{token(rng, 6)}">'
    return f'{frame}<h2 class="listing-title">{title}</h2>{text}</section>'


def _table_state(caption: str, headers: list[str], rows: list[list[str]]) -> dict[str, JSONValue]:
    return {"table": {"title": caption, "columns": headers, "rows": rows}}


def _decoy_tables(rng: Random, captions: list[str]) -> tuple[list[str], dict[str, JSONValue]]:
    """Titled decoy tables (caption or heading) and the first one's state."""
    blocks: list[str] = []
    state: dict[str, JSONValue] = {}
    for caption in captions:
        mode = rng.choice((None, "h2", "h2"))
        table, headers, rows = _dict_table(rng, caption if mode is None else None)
        blocks.append(tb.titled(rng, caption, table, mode))
        state = state or _table_state(caption, headers, rows)
    return blocks, state


def table_as_dicts(rng: Random, blocked: bool) -> Slotted:
    """Titled tables; the slot is the requested one's table (after its heading).

    A blocked page carries two or three decoy tables, a solvable one one or two and a notes
    block (see the module docstring).
    """
    decoys = 1 + int(rng.random() < 0.4) + int(blocked)
    caption, *decoy_captions = tb.captions(rng, 1 + decoys)
    block = heading_block(rng, caption)
    data, headers, rows = _dict_table(rng, None)
    decoy_blocks, decoy_state = _decoy_tables(rng, decoy_captions)
    sections = [block, *decoy_blocks] + ([] if blocked else [notes_block(rng, "table")])
    if rng.random() < 0.4:
        sections.append(tb.layout_table(rng))
    rng.shuffle(sections)
    return Slotted(
        query=queries.table_as_dicts(caption),
        truth=[dict(zip(headers, row, strict=True)) for row in rows],
        name=caption,
        title=pools.sentence(rng, 3).rstrip("."),
        breadcrumbs=("Home", "Reports", caption.split(" ")[0]),
        chrome=Difficulty.MEDIUM,
        sections=tuple(sections),
        data=data,
        data_inner=data,
        subject="table",
        state=_table_state(caption, headers, rows),
        decoy_state=decoy_state,
    )


def column_by_header(rng: Random, blocked: bool) -> Slotted:
    """Titled tables sharing a near-duplicate column pair; the slot is the requested one.

    A blocked page carries two decoy tables, a solvable one one and a notes block (see the
    module docstring).
    """
    caption, decoy_caption, *more = tb.captions(rng, 3 if blocked else 2)
    pair = tb.column_pair(rng)
    block = heading_block(rng, caption)
    columns = tb.with_pair(rng, pair, rng.randint(1, 3))
    headers = [col.header for col in columns]
    rows = tb.rows_for(rng, columns, rng.randint(3, 7))
    thead = rng.random() < 0.75
    data = tb.table_html(
        rng,
        headers,
        rows,
        thead=thead,
        tbody=rng.random() < 0.7,
        footer=tb.totals_row(columns, rows) if rng.random() < 0.8 else None,
        footer_first=thead and rng.random() < 0.2,
        noise=0.35,
    )
    decoy, decoy_rows, decoy_headers = tb.column_block(rng, decoy_caption, pair)
    sections = [block, decoy, *(tb.column_block(rng, extra, pair)[0] for extra in more)]
    if not blocked:
        sections.append(notes_block(rng, "table"))
    rng.shuffle(sections)
    index = headers.index(pair[0].header)
    return Slotted(
        query=queries.column_by_header(caption, pair[0].header),
        truth=[row[index] for row in rows],
        name=caption,
        title=pools.sentence(rng, 3).rstrip("."),
        breadcrumbs=("Home", "Reports"),
        chrome=Difficulty.MEDIUM,
        sections=tuple(sections),
        data=data,
        data_inner=data,
        subject="table",
        state=_table_state(caption, headers, rows),
        decoy_state=_table_state(decoy_caption, decoy_headers, decoy_rows),
    )


def decoy_listing(rng: Random, title: str, cards: list[feeds.Card], style: int) -> str:
    """A titled listing nobody asks about (another section, "Sponsored", ...)."""
    items = feeds.list_html([feeds.card_html(c, style) for c in cards])
    return (
        f'<section class="listing" id="listing-{token(rng, 6)}"><h2 class="listing-title">'
        f"{escape(title)}</h2>{feeds.count_line(len(cards), len(cards))}{items}</section>"
    )


def item_list(rng: Random, extra: int, notes: bool) -> Slotted:
    """A product listing among decoy listings; the slot is the listing's item list.

    ``extra`` > 0 adds one more decoy listing of that many cards (a page that blocks the
    requested items carries as many elsewhere); ``notes`` adds a notes block (what a
    solvable page has in its place; see the module docstring).
    """
    section, decoy_section, extra_section = pools.unique(rng, feeds.section_name, 3)
    fmt = listing.price_style(rng)
    names = pools.unique(rng, pools.product_name, rng.randint(8, 18))
    cards = feeds.draw_cards(rng, names, fmt)
    style = rng.randrange(feeds.CARD_STYLES)
    decoy_cards = feeds.draw_cards(rng, feeds.other_names(rng, names, rng.randint(3, 6)), fmt)
    side_cards = feeds.draw_cards(rng, feeds.other_names(rng, names, rng.randint(2, 4)), fmt)
    block = (
        f'<section class="listing" id="listing-{token(rng, 6)}"><h2 class="listing-title">'
        f"{escape(section)}</h2>\n{SLOT}</section>"
    )
    sections = [
        block,
        decoy_listing(rng, decoy_section, decoy_cards, style),
        decoy_listing(
            rng,
            rng.choice(("Recently viewed", "Sponsored", "Customers also viewed")),
            side_cards,
            style,
        ),
    ]
    if extra:
        more = feeds.draw_cards(rng, feeds.other_names(rng, names, extra), fmt)
        sections.append(decoy_listing(rng, extra_section, more, style))
    if notes:
        sections.append(notes_block(rng, "listing"))
    rng.shuffle(sections)
    count = feeds.count_line(len(cards), len(cards)) if rng.random() < 0.5 else ""
    data = count + feeds.list_html([feeds.card_html(c, style) for c in cards])
    return Slotted(
        query=queries.item_list(section),
        truth=names,
        name=section,
        title=section,
        breadcrumbs=("Home", "Shop", section.split(" ")[0]),
        chrome=Difficulty.MEDIUM,
        sections=tuple(sections),
        data=data,
        data_inner=data,
        subject="listing",
        state={"listing": {"title": section, "items": feeds.state_items(cards)}},
        decoy_state={"listing": {"title": decoy_section, "items": feeds.state_items(decoy_cards)}},
        cards=tuple(cards),
        card_style=style,
    )


def build(rng: Random, template: str, blocked: bool) -> Slotted:
    """The slotted layout of one shared request template, for a blocked or solvable page."""
    if template == "featured_price":
        return slots.featured_price(rng, blocked)
    if template == "contact_phone":
        return slots.contact_phone(rng, blocked)
    if template == "table_as_dicts":
        return table_as_dicts(rng, blocked)
    if template == "column_by_header":
        return column_by_header(rng, blocked)
    if template == "item_list":
        return item_list(rng, rng.randint(8, 18) if blocked else 0, notes=not blocked)
    raise ValueError(f"no slotted layout for template {template!r}")
