"""The requested phone number or table is only published as an image.

Skill: following the request to its place (the store's customer-service row, the titled
table's block), checking every static source that could hold the value (the row's text,
a ``tel:`` link, the image's ``alt`` or ``aria-label``, JSON-LD, a text version of the
table under the image, in a ``<details>`` or in the figcaption), finding only an
``<img>`` (or an element painted by a CSS ``background-image``) whose text alternative
says nothing ("Call us", the table's name), and abstaining with the image URL or element
id as evidence instead of answering a visible look-alike.
Shortcuts resisted: the requests are word-for-word the shared ``contact_phone`` and
``table_as_dicts`` requests with store names and captions from the same pools; the
solvable twin ``image_text_alternative`` shows the same image with a text version, so
"an image at the value means abstain" scores 0 there; a press-office number with a
``tel:`` link, a sister store's JSON-LD telephone, a call-back link beside the image and
decoy tables (often the same subject, another period) sit on the page.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, LimitReason


def generate(rng: Random) -> Generated:
    # Half contact_phone, half table_as_dicts (``text_images.TEMPLATES``), as the solvable
    # twin ``image_text_alternative``.
    page = slot_pages.image_page(rng, with_text=False)
    return twin_pages.generated(page, LimitReason.IMAGE_TEXT)


ARCHETYPE = ArchetypeSpec(
    id="image_text",
    category=Category.LIMITATION,
    difficulty=Difficulty.HARD,
    solvable=False,
    version=7,
    phase="phase2",
    description="The requested phone number or table is only published as an image.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
