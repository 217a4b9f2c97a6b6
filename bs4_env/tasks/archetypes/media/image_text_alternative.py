"""A phone number or a table published as an image, with a text version in the HTML.

Skill: following the request to its place (the store's customer-service row, the titled
table's block), finding an image there and reading its text version: the number in the
image's ``alt`` (or the painted element's ``aria-label``) or in a ``tel:`` link beside
it, and the table in HTML under the image, in a ``<details>`` box or inside the
``<figcaption>``.
Shortcuts resisted: this is the solvable twin of ``image_text`` (same requests, pools,
layouts, image markup and chrome level), so "an image at the value means abstain" scores
0; the row's text is empty when the number is only in the ``alt``, so ``get_text()``
alone finds nothing; a press-office number, a sister store's JSON-LD telephone and decoy
tables (often the same subject, another period) sit on the page.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    # Half contact_phone, half table_as_dicts (``text_images.TEMPLATES``), as
    # ``image_text``.
    return twin_pages.generated(slot_pages.image_page(rng, with_text=True), None)


ARCHETYPE = ArchetypeSpec(
    id="image_text_alternative",
    category=Category.MEDIA,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A phone number or table as an image, with its text in alt, tel: or HTML.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
    solution_of="image_text",
)
