"""The requested price or phone number is written in private-use glyphs a custom font maps.

Skill: reading the value element the request points at (the featured product's current
price, the store's customer-service row), seeing that its characters are private-use code
points (raw or as ``&#x...;`` references) instead of digits, that an ``@font-face`` font
set on that element is what draws them as digits, and that no static copy exists (no
``tel:`` link, no JSON-LD telephone), then abstaining with the element's id or the font
as evidence instead of answering another visible number.
Shortcuts resisted: the requests are word-for-word the shared ``featured_price`` and
``contact_phone`` requests with names from the same pools; the solvable twin
``custom_font_value`` sets its value in the same kind of custom font (same ``<style>``,
ids, classes and an icon-font glyph beside it), so "an ``@font-face`` or a
private-use character near the value means abstain" scores 0 there; old, hidden and
related prices, a press-office number and a sister store's JSON-LD telephone sit on the
page, so answering "some price" or "some phone" is wrong.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, LimitReason


def generate(rng: Random) -> Generated:
    # Half featured_price, half contact_phone (``glyph_fonts.TEMPLATES``), as the solvable
    # twin ``custom_font_value``.
    page = slot_pages.font_page(rng, scrambled=True)
    return twin_pages.generated(page, LimitReason.FONT_OBFUSCATION)


ARCHETYPE = ArchetypeSpec(
    id="font_obfuscation",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=6,
    phase="phase2",
    description="The price or phone is private-use glyphs that only a custom font draws as digits.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
