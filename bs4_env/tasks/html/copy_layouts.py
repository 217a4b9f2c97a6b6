"""Which kinds of blocking element stand on which page layout, and how often (issue 39).

A limitation archetype puts its blocking element in the slot of one shared request's
layout (``slot_tables``: a product's price box, a store's contact row, a report's table
block, a listing; ``media_pages``: a recording's article). The chrome's copies of blocking
elements (``blocker_copies``) stand in the same frames; if a copy's kind never blocked on
the page's layout (an endless feed beside a store's other branch), its frame's siblings
would tell it from the blocker, and if a kind blocked there more often than its copies
stood there, its kind would. So on a page that shows such a layout (by its mark in the
main region) copies draw their kinds with ``layout_kinds``' weights: each kind blocks on
the layout in proportion to the share of its archetype's pages that have that layout.
"""

from __future__ import annotations

import functools
from types import MappingProxyType

from bs4_env.tasks.html import canvas_slots, glyph_fonts, result_forms, text_images
from bs4_env.tasks.model import LimitReason

# How a main region shows that it holds a subject's frame (the requested one's or a decoy's).
SUBJECT_MARKS: MappingProxyType[str, str] = MappingProxyType(
    {
        "price": 'class="price-box"',
        "phone number": 'class="store-contact"',
        "table": 'class="table-block"',
        "listing": 'class="listing"',
    }
)


# The request templates on which each kind of blocking element stands, as the limitation
# archetypes draw them (each its templates evenly; ``tests/test_blocker_copies.py`` checks
# them against the archetypes), and the mark each template's main region shows.
BLOCKED_TEMPLATES: MappingProxyType[LimitReason, tuple[str, ...]] = MappingProxyType(
    {
        LimitReason.JS_RENDERED: ("table_as_dicts", "featured_price", "item_list"),
        LimitReason.CANVAS_TEXT: canvas_slots.TEMPLATES,
        LimitReason.IMAGE_TEXT: text_images.TEMPLATES,
        LimitReason.PDF_EMBED: ("column_by_header", "table_as_dicts"),
        LimitReason.BOT_WALL: ("featured_price", "contact_phone", "table_as_dicts", "item_list"),
        LimitReason.LOGIN_REQUIRED: ("featured_price", "contact_phone"),
        LimitReason.INFINITE_SCROLL: ("item_list",),
        LimitReason.FONT_OBFUSCATION: glyph_fonts.TEMPLATES,
        LimitReason.MEDIA_ONLY: ("recording",),
        LimitReason.FORM_SUBMISSION: result_forms.TEMPLATES,
    }
)
TEMPLATE_MARKS: MappingProxyType[str, str] = MappingProxyType(
    {
        "featured_price": SUBJECT_MARKS["price"],
        "contact_phone": SUBJECT_MARKS["phone number"],
        "table_as_dicts": SUBJECT_MARKS["table"],
        "column_by_header": SUBJECT_MARKS["table"],
        "item_list": SUBJECT_MARKS["listing"],
        "recording": 'class="more-media"',
    }
)


_MARKS = tuple(dict.fromkeys([*SUBJECT_MARKS.values(), *TEMPLATE_MARKS.values()]))


# Every copy on a page asks which marks its main region holds: each mark is looked for once
# per page (a pure function of the text, so caching changes no output and no draw).
@functools.lru_cache(maxsize=8)
def marks_in(page: str) -> frozenset[str]:
    """The marks of ``SUBJECT_MARKS`` and ``TEMPLATE_MARKS`` that ``page`` holds."""
    return frozenset(mark for mark in _MARKS if mark in page)


def layout_kinds(page: str) -> dict[LimitReason, float]:
    """How often each kind blocks on a page whose main region is ``page``: for each layout
    the page shows (by its mark), the kinds that block there, each weighted by the share
    of its archetype's pages with that layout; empty when ``page`` shows none.

    Copies on such a page are drawn with these weights (``widgets.page_widgets``): a copy
    of a kind that never blocks on the page's layout is told from the blocker by the
    sections around it (a feed beside a store's other branch), and a kind that blocks
    there more often than its copies stand there is found by its kind. Drawn alike, every
    kind's element is the blocker as often, whatever its frame's siblings say.
    """
    present = marks_in(page)
    weights: dict[LimitReason, float] = {}
    for kind, templates in BLOCKED_TEMPLATES.items():
        for template in templates:
            if TEMPLATE_MARKS[template] in present:
                weights[kind] = weights.get(kind, 0.0) + 1 / len(templates)
    return weights
