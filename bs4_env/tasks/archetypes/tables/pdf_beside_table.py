"""A titled table shown in HTML and, beside it, as an embedded PDF (a printable copy).

Skill: reading the requested table (or one column of it) from the HTML table in the
titled block, although the block also embeds a PDF viewer (``<embed>``, ``<object>`` or an
``<iframe>`` in ``<details>``) of the same table, before or after it.
Shortcuts resisted: this is the solvable twin of ``pdf_embed`` (same requests, caption
pool, layout, viewer markup and chrome level), so "an embedded PDF under the heading
means abstain" scores 0; "the next table/embed after the heading" meets the viewer first
on half the pages; decoy tables with the same subject (another period) and, for a column
request, the asked header's near-duplicate column, sit beside it.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import pdf_viewers, slot_tables
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, LimitReason

# Half each, as ``pdf_embed``.
TEMPLATES = ("column_by_header", "table_as_dicts")


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, rng.choice(TEMPLATES), blocked=False)
    viewer = pdf_viewers.pdf_viewer(rng, layout.name).html
    slot = viewer + layout.data if rng.random() < 0.5 else layout.data + viewer
    html = wrap_page(
        rng,
        title=layout.title,
        main_html=layout.main(rng, slot),
        difficulty=layout.chrome,
        breadcrumbs=layout.breadcrumbs,
        # The viewer is a PDF element like the blocking one of ``pdf_embed``: the chrome
        # carries one fewer harmless one, so both pages draw the same counts.
        limitation=LimitReason.PDF_EMBED,
    )
    return Generated(
        html=html,
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="pdf_beside_table",
    category=Category.TABLES,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A titled HTML table with an embedded PDF copy of it in the same block.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
    solution_of="pdf_embed",
)
