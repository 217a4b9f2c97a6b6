"""A price or phone number set in a custom web font, with plain digits in the HTML.

Skill: reading the value element the request points at (the featured product's current
price, the store's customer-service row) although it is styled with an ``@font-face``
font (by a class rule or inline), and leaving out an icon-font glyph (a private-use
character in an ``<i>``) that may sit right before it.
Shortcuts resisted: this is the solvable twin of ``font_obfuscation`` (same requests,
pools, layouts, font markup and chrome level), so "a custom font or a private-use glyph
at the value means abstain" scores 0; ``get_text()`` of the row keeps the icon glyph, so
the value element (or the text without private-use characters) must be read; old, hidden
and related prices, a press-office number and a sister store's telephone are decoys.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    # Half featured_price, half contact_phone (``glyph_fonts.TEMPLATES``), as
    # ``font_obfuscation``.
    return twin_pages.generated(slot_pages.font_page(rng, scrambled=False), None)


ARCHETYPE = ArchetypeSpec(
    id="custom_font_value",
    category=Category.TEXT,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A price or phone set in a custom web font (icon glyph beside it); digits plain.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
    solution_of="font_obfuscation",
)
