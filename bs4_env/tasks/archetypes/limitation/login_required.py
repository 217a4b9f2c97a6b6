"""The requested price or phone number is only shown after signing in.

Skill: following the request to its place (the featured product's price box, the contact
page's customer-service row), seeing that it holds only a sign-in gate (a blurred
placeholder and a "Sign in to see the price" link with a return address) and that the
value is nowhere else in the page (not in JSON-LD, not in an attribute), then abstaining
with the gate's id or login link as evidence.
Shortcuts resisted: the requests are word-for-word the shared ``featured_price`` and
``contact_phone`` requests with names from the same pools; the solvable twin
``signin_teaser_public`` carries the same gate markup for members-only extras (a member
price, saved lists, an account manager; sometimes inside the price box), so "a sign-in
link means abstain" fails there; this page keeps every decoy (old, hidden and related
prices, a "recently viewed" price for the same product, the press-office number and a
sister store's JSON-LD telephone), so answering from the nearest look-alike is wrong.
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

# Half each, shared with the solvable twin ``signin_teaser_public``.
TEMPLATES = ("featured_price", "contact_phone")


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, rng.choice(TEMPLATES), blocked=True)
    blur = rng.random() < 0.6
    gate = walls.sign_in_gate(rng, layout.subject, blocking=True, blur=blur)
    # Teaser blocks as often as on the twin ``signin_teaser_public``: there a product page
    # has its teaser in the price box half the time (here the gate stands there), else in a
    # block of its own, and any page has another block three times in ten.
    extras = []
    if layout.subject != "price" or rng.random() >= 0.5:
        extras.append(walls.teaser_block(rng, layout.subject, blur))
    if rng.random() < 0.3:
        extras.append(walls.teaser_block(rng, layout.subject, blur))
    html = wrap_page(
        rng,
        title=layout.title,
        main_html=layout.main(rng, gate.html, extras),
        difficulty=layout.chrome,
        breadcrumbs=layout.breadcrumbs,
        extra_head=layout.extra_head,
        limitation=LimitReason.LOGIN_REQUIRED,
    )
    return Generated(
        html=html,
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=None,
        limitation=LimitationInfo(
            reasons=(LimitReason.LOGIN_REQUIRED,), evidence_tokens=gate.tokens
        ),
    )


ARCHETYPE = ArchetypeSpec(
    id="login_required",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=6,
    phase="phase2",
    description="The requested price or phone number is replaced by a sign-in gate.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
