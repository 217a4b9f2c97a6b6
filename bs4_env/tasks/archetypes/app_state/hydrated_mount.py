"""A client-side mount node whose data is nevertheless in the static HTML.

Skill: following the request to its place on the page (the table's heading, the featured
product's price box, the listing's heading), finding a JavaScript mount node there (an id,
a ``data-endpoint``, ``aria-busy``, a renderer script, a ``<noscript>``) and still reading
the data statically: rendered on the server inside the mount, or in a JSON state blob
(``__NEXT_DATA__`` or ``window.__INITIAL_STATE__``) found by the requested title or name.
Shortcuts resisted: this is the solvable twin of ``js_rendered`` (same requests, pools,
mount markup, scripts and chrome level), so "a mount node or ``data-endpoint`` means
abstain" scores 0 here; the empty mount of the price variant is itself classed ``price
current`` and shows "…"; state blobs hold the decoy table, related products or another
listing beside the requested one, so the title or name must be matched.
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
    extras = []
    if rng.random() < 0.5:  # rendered on the server; the script only refreshes it
        slot = mount.node(layout.data_inner) + mounts.noscript(layout.subject)
    else:  # the renderer hydrates from state embedded in the page
        slot = mount.node(None) + mounts.noscript(layout.subject)
        modules = [layout.state, layout.decoy_state]
        rng.shuffle(modules)
        extras.append(mounts.state_blob(rng, {"modules": modules}))
    return Generated(
        html=slot_pages.mounted_page(rng, layout, mount, slot, extras),
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="hydrated_mount",
    category=Category.APP_STATE,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A JS mount node whose data is server-rendered or in a JSON state blob.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
    solution_of="js_rendered",
)
