"""The requested price or table column is only drawn on a ``<canvas>`` from fetched data.

Skill: following the request to its place (the featured product's price box, the titled
table's block), seeing that it holds a canvas that a script fills from an endpoint, with
nothing static to read (the canvas's fallback and any hidden text beside it only say
"Loading…" or "Current price"), and abstaining with the canvas id or the endpoint as
evidence instead of reporting some other visible price or table.
Shortcuts resisted: the requests are word-for-word the shared ``featured_price`` and
``column_by_header`` requests with names and captions from the same pools; the solvable
twin ``canvas_fallback_content`` draws the same canvas from the same kind of endpoint but
keeps the data as text (fallback content, a hidden text, a data table), so "a canvas at
the value means abstain" scores 0 there; crossed-out, hidden-variant, related and
recently-viewed prices and decoy tables with the asked header's near-duplicate column
sit on the page, so "first price" or "first table with that header" answers wrongly.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, LimitReason


def generate(rng: Random) -> Generated:
    # Half featured_price, half column_by_header (``canvas_slots.TEMPLATES``), as the
    # solvable twin ``canvas_fallback_content``.
    page = slot_pages.canvas_page(rng, with_fallback=False)
    return twin_pages.generated(page, LimitReason.CANVAS_TEXT)


ARCHETYPE = ArchetypeSpec(
    id="canvas_text",
    category=Category.LIMITATION,
    difficulty=Difficulty.HARD,
    solvable=False,
    version=8,
    phase="phase2",
    description="The price or table column is only drawn on a canvas from a fetched endpoint.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
