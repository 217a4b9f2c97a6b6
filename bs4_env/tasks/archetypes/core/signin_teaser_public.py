"""The requested price or phone number is public, among members-only sign-in teasers.

Skill: following the request to its place (the featured product's price box, the contact
page's customer-service row) and reading the value there, although the page carries
sign-in gates (a blurred placeholder, a "Sign in to see your member price" link) for
members-only extras: a member price, saved lists, loyalty points, an account manager.
Shortcuts resisted: this is the solvable twin of ``login_required`` (same requests,
pools, layouts, gate markup and chrome level), so "a sign-in gate means abstain" scores 0;
on half the product pages the member-price gate sits inside the price box itself, so
only whether the current price is there decides; every decoy of the layouts stays (old,
hidden and related prices, a "recently viewed" price, a press-office number, a sister
store's JSON-LD telephone).
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_tables, walls
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, LimitReason

# Half each, as ``login_required``.
TEMPLATES = ("featured_price", "contact_phone")


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, rng.choice(TEMPLATES), blocked=False)
    slot, extras = layout.data, []
    blur = rng.random() < 0.6  # as on ``login_required``: one look for a page's gates
    if layout.subject == "price" and rng.random() < 0.5:
        slot += " " + walls.sign_in_gate(rng, layout.subject, blocking=False, blur=blur).html
    else:
        extras.append(walls.teaser_block(rng, layout.subject, blur))
    if rng.random() < 0.3:
        extras.append(walls.teaser_block(rng, layout.subject, blur))
    html = wrap_page(
        rng,
        title=layout.title,
        main_html=layout.main(rng, slot, extras),
        difficulty=layout.chrome,
        breadcrumbs=layout.breadcrumbs,
        extra_head=layout.extra_head,
        # The teaser is a sign-in element like the blocking gate of ``login_required``: the
        # chrome carries one fewer harmless one, so both pages draw the same counts.
        limitation=LimitReason.LOGIN_REQUIRED,
    )
    return Generated(
        html=html,
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="signin_teaser_public",
    category=Category.CORE,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A public price or phone number among members-only sign-in teasers.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
    solution_of="login_required",
)
