"""The requested data is on the page, beside a bot check that guards something else.

Skill: following the request to its place (the featured product's price box, the
customer-service row, the table's heading, the listing's heading) and reading the data
there, although the page carries a challenge widget (turnstile form, ``<noscript>`` notice,
Ray ID, challenge script) that only guards posting a review, a CSV download or an alert.
Shortcuts resisted: this is the solvable twin of ``bot_wall`` (same requests, pools,
layouts, challenge markup and chrome level), so "a challenge on the page means abstain"
scores 0; half the time the check sits inside the requested block itself (under the
table, in the price box, in the customer-service row, under the listing), so only what the
block holds, not what is near it, decides; the decoys of every layout stay (old, hidden
and related prices, a press-office number, a decoy table, decoy listings).
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_tables, walls
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, LimitReason

# A quarter each, as ``bot_wall``.
TEMPLATES = ("featured_price", "contact_phone", "table_as_dicts", "item_list")


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, rng.choice(TEMPLATES), blocked=False)
    check = walls.challenge(rng, layout.subject, blocking=False).html
    slot, extras = layout.data, []
    if rng.random() < 0.5:
        slot += check
    else:
        extras.append(check)
    if rng.random() < 0.3:
        extras.append(walls.challenge(rng, layout.subject, blocking=False).html)
    html = wrap_page(
        rng,
        title=layout.title,
        main_html=layout.main(rng, slot, extras),
        difficulty=layout.chrome,
        breadcrumbs=layout.breadcrumbs,
        extra_head=layout.extra_head,
        # The inline check is a challenge widget like the blocking one of ``bot_wall``: the
        # chrome carries one fewer harmless one, so both pages draw the same counts.
        limitation=LimitReason.BOT_WALL,
        footer_note=walls.cdn_notice(rng),
    )
    return Generated(
        html=html,
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="bot_check_inline",
    category=Category.ROBUSTNESS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=7,
    phase="phase2",
    description="The requested value is on the page beside a bot check guarding something else.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
    solution_of="bot_wall",
)
