"""A bot check (challenge interstitial) stands where the requested data should be.

Skill: following the request to its place on the page (the featured product's price box,
the contact page's customer-service row, the table's heading, the listing's heading),
seeing that the place holds only a challenge ("Checking your browser…", a turnstile form
with a seed-random id, a ``<noscript>`` "enable JavaScript and cookies", a Ray ID and a
challenge script) and that the data is nowhere else in the page, then abstaining with the
challenge form's id (or its Ray ID or script) as evidence.
Shortcuts resisted: the requests are word-for-word the shared ``featured_price``,
``contact_phone``, ``table_as_dicts`` and ``item_list`` requests, with names and captions
from the same pools; the solvable twin ``bot_check_inline`` carries the same challenge
markup (guarding a review form or a CSV download, sometimes right beside the data), so
"a challenge on the page means abstain" fails there; this page keeps every decoy (old,
hidden and related prices, the press-office number and a sister store's JSON-LD, a decoy
table, decoy listings), so answering from the nearest look-alike is wrong; the site's CDN
footer line prints a second Ray ID (on the twin too), so citing every Ray ID is an inventory.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_tables, walls
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import (
    ArchetypeSpec,
    Category,
    Difficulty,
    Generated,
    LimitationInfo,
    LimitReason,
)

# A quarter each, shared with the solvable twin ``bot_check_inline``.
TEMPLATES = ("featured_price", "contact_phone", "table_as_dicts", "item_list")


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, rng.choice(TEMPLATES), blocked=True)
    wall = walls.challenge(rng, layout.subject, blocking=True)
    # The twin always carries a non-blocking check; here one sometimes guards something else.
    extras = []
    if rng.random() < 0.3:
        extras.append(walls.challenge(rng, layout.subject, blocking=False).html)
    html = wrap_page(
        rng,
        title=layout.title,
        main_html=layout.main(rng, wall.html, extras),
        difficulty=layout.chrome,
        breadcrumbs=layout.breadcrumbs,
        extra_head=layout.extra_head,
        limitation=LimitReason.BOT_WALL,
        footer_note=walls.cdn_notice(rng),
    )
    return Generated(
        html=html,
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=None,
        limitation=LimitationInfo(reasons=(LimitReason.BOT_WALL,), evidence_tokens=wall.tokens),
    )


ARCHETYPE = ArchetypeSpec(
    id="bot_wall",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=7,
    phase="phase2",
    description="A bot-check challenge stands in for the requested price, phone, table or list.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
