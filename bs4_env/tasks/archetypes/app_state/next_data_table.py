"""A client-rendered table whose data ships in the page's ``__NEXT_DATA__`` script.

Skill: finding ``<script id="__NEXT_DATA__" type="application/json">``, ``json.loads`` on
its text, walking ``props.pageProps.dehydratedState.queries`` to the cached query whose
data ``title`` is the requested caption, and rebuilding rows keyed by the column *labels*
(``columns`` maps each field id to its label and fixes the order).
Shortcuts resisted: this is a solvable twin of ``js_rendered`` built from the same layout
(the shared ``table_as_dicts`` request, captions from ``tables.captions``, the heading,
the empty mount with a loader, ``data-endpoint``, ``aria-busy``, renderer script and
``<noscript>`` plea), so "an empty mount means abstain" scores 0; the visible decoy table
and the cache entries of other reports (same subject, another period) have other
captions; row objects use field ids (``leadTime``) with sorted keys, so dumping them or
zipping their values with the headers gives wrong keys or a wrong order.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import app_state, mounts, slot_pages, slot_tables
from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token


def _decoy_query(rng: Random, caption: str) -> dict[str, object]:
    columns = tb.pick_columns(rng, rng.randint(3, 6))
    headers = [c.header for c in columns]
    rows = tb.rows_for(rng, columns, rng.randint(2, 6))
    return app_state.table_query(rng, token(rng, 6), caption, headers, rows)


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, "table_as_dicts", blocked=False)
    headers = list(layout.truth[0])
    rows = [[row[h] for h in headers] for row in layout.truth]
    target = app_state.table_query(rng, token(rng, 6), layout.name, headers, rows)
    decoy = layout.decoy_state["table"]
    cached = [
        target,
        app_state.table_query(rng, token(rng, 6), decoy["title"], decoy["columns"], decoy["rows"]),
    ]
    # Reports the visitor opened before, cached under other captions of the same pool.
    cached += [
        _decoy_query(rng, c) for c in tb.captions(rng, rng.randint(1, 2)) if c != layout.name
    ]
    rng.shuffle(cached)
    mount = mounts.mount(rng, layout.subject)
    slot = mount.node(None) + mounts.noscript(layout.subject)
    blob = app_state.next_data(rng, cached, page="/reports/[slug]")
    return Generated(
        html=slot_pages.mounted_page(rng, layout, mount, slot, [blob]),
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="next_data_table",
    category=Category.APP_STATE,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A client-rendered table rebuilt from __NEXT_DATA__ (field ids to labels).",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
