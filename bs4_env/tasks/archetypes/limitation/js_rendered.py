"""The requested data (a table, a price or a listing) only exists after client-side JS runs.

Skill: following the request to its place on the page (the table's heading, the featured
product's price box, the listing's heading), seeing that the place holds only an empty
mount node (spinner, ``aria-busy``, a ``data-endpoint``, a renderer script, a ``<noscript>``
plea) and that no static copy exists anywhere (not in a ``<noscript>`` fallback, not in a
JSON state blob), then abstaining with the mount's id or endpoint as evidence.
Shortcuts resisted: the requests are word-for-word the shared ``table_as_dicts``,
``featured_price`` and ``item_list`` requests, with captions, product names and listing
titles from the same pools as the solvable pages; the solvable twins ``hydrated_mount``
(data rendered on the server or in a state blob) and ``noscript_fallback`` (data in the
``<noscript>``) carry the very same mount node and scripts, so "a mount node means
abstain" fails there; a decoy table, related prices and decoy listings (and sometimes a
state blob of that other data) sit on this page, so answering from them is wrong.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import mounts, slot_pages, slot_tables
from bs4_env.tasks.model import (
    ArchetypeSpec,
    Category,
    Difficulty,
    Generated,
    LimitationInfo,
    LimitReason,
)

# One third each: table_as_dicts, featured_price, item_list (as the solvable twins
# ``hydrated_mount`` and ``noscript_fallback``).
TEMPLATES = ("table_as_dicts", "featured_price", "item_list")


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, rng.choice(TEMPLATES), blocked=True)
    mount = mounts.mount(rng, layout.subject)
    extras = []
    # A quarter of the twins hydrate from a state blob; a blob here holds only other data.
    if rng.random() < 1 / 4:
        extras.append(mounts.state_blob(rng, {"modules": [layout.decoy_state]}))
    # Half of ``hydrated_mount``'s mounts are rendered on the server, with no loading
    # indicator: an empty mount here shows one as often as the twins' mounts do.
    slot = mount.node(None, spinner=rng.random() < 0.75) + mounts.noscript(layout.subject)
    return Generated(
        html=slot_pages.mounted_page(rng, layout, mount, slot, extras),
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=None,
        limitation=LimitationInfo(reasons=(LimitReason.JS_RENDERED,), evidence_tokens=mount.tokens),
    )


ARCHETYPE = ArchetypeSpec(
    id="js_rendered",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=7,
    description="The requested table, price or listing is rendered client-side from an endpoint.",
    # Each request carries its own answer shape (that of the shared template it uses).
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
