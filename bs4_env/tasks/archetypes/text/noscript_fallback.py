"""A client-side mount node whose data is in its ``<noscript>`` fallback.

Skill: following the request to its place on the page (the table's heading, the featured
product's price box, the listing's heading), finding an empty JavaScript mount node there
(an id, a ``data-endpoint``, ``aria-busy``, a spinner, a renderer script) and reading the
server's fallback markup from the ``<noscript>`` right after it: BeautifulSoup's parsers
parse ``<noscript>`` content as ordinary elements, so the table, price or list is there.
Shortcuts resisted: this is a solvable twin of ``js_rendered`` (same requests, pools,
mount markup, scripts and chrome level), so "an empty mount or a ``data-endpoint`` means
abstain" scores 0 here; the empty price mount is itself classed ``price current`` and
shows "…", so "the first ``.price.current``" is wrong; decoy tables, related prices and
decoy listings sit on the page, so the heading or product name must be matched.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import mounts, slot_pages, slot_tables
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

# One third each: table_as_dicts, featured_price, item_list (as ``js_rendered``).
TEMPLATES = ("table_as_dicts", "featured_price", "item_list")


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, rng.choice(TEMPLATES), blocked=False)
    mount = mounts.mount(rng, layout.subject)
    slot = mount.node(None) + mounts.noscript(layout.subject, layout.data)
    return Generated(
        html=slot_pages.mounted_page(rng, layout, mount, slot, []),
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="noscript_fallback",
    category=Category.TEXT,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="An empty JS mount node whose data is in its <noscript> server fallback.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
    solution_of="js_rendered",
)
