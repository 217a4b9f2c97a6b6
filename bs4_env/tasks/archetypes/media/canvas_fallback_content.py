"""A price or a chart drawn on a ``<canvas>``, whose data is also in the HTML as text.

Skill: following the request to its place (the featured product's price box, the titled
table's block), finding a canvas drawn by a script from an endpoint, and still reading the
data statically: the canvas's fallback content (the price, or the whole data table inside
``<canvas>``), a visually hidden text beside it, or the chart's data table in a
``<details>`` box or right under the chart.
Shortcuts resisted: this is the solvable twin of ``canvas_text`` (same requests, pools,
layouts, canvas, script and endpoint shapes, chrome level), so "a canvas at the value
means abstain" scores 0; the price in the fallback is not classed ``price``, so "the
visible ``.price.current``" finds nothing; decoy prices (crossed-out, hidden variant,
related, recently viewed) and decoy tables with the asked header's near-duplicate column
sit on the page.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    # Half featured_price, half column_by_header (``canvas_slots.TEMPLATES``), as
    # ``canvas_text``.
    return twin_pages.generated(slot_pages.canvas_page(rng, with_fallback=True), None)


ARCHETYPE = ArchetypeSpec(
    id="canvas_fallback_content",
    category=Category.MEDIA,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A price or chart on a canvas whose data is also fallback content or a table.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
    solution_of="canvas_text",
)
