"""The requested table exists only inside an embedded PDF.

Skill: noticing that the heading naming the table is followed by an ``<embed>``,
``<object>`` or ``<iframe>`` pointing at a PDF rather than by an HTML table, and abstaining
with evidence (the viewer's id or the PDF's URL) instead of answering from another table.
Shortcuts resisted: the requests are word-for-word the solvable ``column_by_header`` and
``table_as_dicts`` requests, with captions from the same pool (``tables.captions``); a decoy
HTML table with another caption (often the same subject, another period) holds the same
kind of columns (for a column request, the asked header and its near-duplicate), so "first
table" or "first table with that header" answers wrongly; solvable tables sometimes offer
a PDF download and other pages embed PDF viewers of other documents, so a PDF alone proves
nothing, and the twin ``pdf_beside_table`` embeds the same viewer as a printable copy
right beside its HTML table, so "an embedded PDF under the heading means abstain" fails.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import pdf_viewers, slot_tables
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import (
    ArchetypeSpec,
    Category,
    Difficulty,
    Generated,
    LimitationInfo,
    LimitReason,
)

# Half each: column_by_header (as ``table_column_by_header``) and table_as_dicts (as
# ``table_dicts_by_header``), with captions from the same pool (``tables.captions``), as the
# solvable twin ``pdf_beside_table``.
TEMPLATES = ("column_by_header", "table_as_dicts")


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, rng.choice(TEMPLATES), blocked=True)
    viewer = pdf_viewers.pdf_viewer(rng, layout.name)
    html = wrap_page(
        rng,
        title=layout.title,
        main_html=layout.main(rng, viewer.html),
        difficulty=layout.chrome,
        breadcrumbs=layout.breadcrumbs,
        limitation=LimitReason.PDF_EMBED,
    )
    return Generated(
        html=html,
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=None,
        limitation=LimitationInfo(reasons=(LimitReason.PDF_EMBED,), evidence_tokens=viewer.tokens),
    )


ARCHETYPE = ArchetypeSpec(
    id="pdf_embed",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=7,
    phase="phase2",
    description="The requested table is only inside an embedded PDF; a decoy HTML table is near.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
