"""Query templates shared by solvable archetypes and their limitation twins.

A limitation task must read exactly like a solvable one: each limitation archetype builds
its request with the same template (same id, same wording, same answer schema) as a
solvable twin, so nothing in the prompt reveals whether the page can be extracted.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Query:
    template: str
    text: str
    answer_schema: str


DISPLAYED = (
    "as a browser displays it: runs of whitespace collapsed to one space, trimmed, and no space "
    "added where an inline tag (b, i, span, sup, a, ...) begins or ends"
)
"""How a text answer is read off the page; say it in every schema whose truth is display text.

``get_text(" ", strip=True)`` inserts a space at every tag boundary ("$ 648.94" for
``$648<sup>.94</sup>``); a browser does not, and neither does the truth.
"""

# Some pages hold the price only in embedded data (a JSON state blob) and display nothing
# where it belongs: the schema says how to write it then, so "as displayed" is never a claim
# about text that is not there.
PRICE_SCHEMA = (
    'a string, the price exactly as displayed (e.g. "$12.50"), or, where the page does not '
    f"display it, exactly as its embedded data writes it; {DISPLAYED}"
)
TABLE_DICTS_SCHEMA = (
    f"a list of objects, one per body row, keyed by the exact header texts; cell texts {DISPLAYED}"
)
COLUMN_SCHEMA = f"a list of strings, the column's cell texts from top to bottom, {DISPLAYED}"
PHONE_SCHEMA = (
    f'a string, the phone number exactly as displayed (e.g. "+1 555 010 2233"), {DISPLAYED}'
)
ITEM_LIST_SCHEMA = (
    f'a list of strings, every item name in page order (e.g. ["Aero Kettle", "Bolt Drone"]), '
    f"{DISPLAYED}"
)


def featured_price(product: str) -> Query:
    """The current (not old, not related-item) price of one named product.

    The ignore-list names the "Recently viewed" sidebar: it can show the same product at a
    stale price, and on a page whose price box is empty that would be the only price shown.
    """
    return Query(
        template="featured_price",
        text=(
            f'What is the current price of the featured product "{product}"? Ignore crossed-out '
            'old prices, prices of related or recommended items, and the "Recently viewed" list.'
        ),
        answer_schema=PRICE_SCHEMA,
    )


def table_as_dicts(caption: str) -> Query:
    return Query(
        template="table_as_dicts",
        text=(
            f'Extract the table titled "{caption}" as a list of row objects keyed by its column '
            "headers. Keep the cell texts as displayed (trimmed)."
        ),
        answer_schema=TABLE_DICTS_SCHEMA,
    )


def column_by_header(caption: str, header: str) -> Query:
    return Query(
        template="column_by_header",
        text=(
            f'From the table titled "{caption}", return every value in the "{header}" column, '
            "in row order (body rows only, no header or footer rows)."
        ),
        answer_schema=COLUMN_SCHEMA,
    )


def contact_phone(store: str) -> Query:
    return Query(
        template="contact_phone",
        text=f'What is the customer-service phone number of the store "{store}"?',
        answer_schema=PHONE_SCHEMA,
    )


def item_list(section: str) -> Query:
    """Every item of one named listing (all of it, not just what a first screen shows)."""
    return Query(
        template="item_list",
        text=(
            f'List the names of all items in the "{section}" listing, in page order. Include '
            "every item of the listing, not only the first ones shown."
        ),
        answer_schema=ITEM_LIST_SCHEMA,
    )


MEDIA_FACT_SCHEMA = (
    "a string, the value exactly as the page states it, without the words around it (e.g. "
    f'"95 °C", "12 minutes", "v0.4.1", "HELLO15", "3 May 2031"), {DISPLAYED}'
)


def media_fact(medium: str, title: str, fact: str) -> Query:
    """One fact (a temperature, a version, a code, a date) that a video, talk or episode states.

    Shared by ``media_only`` (the fact is only said in the recording) and its solvable twins
    (the fact is also in a transcript or in the show notes).
    """
    return Query(
        template="media_fact",
        text=f'According to the {medium} "{title}" on this page, what is the {fact}?',
        answer_schema=MEDIA_FACT_SCHEMA,
    )
