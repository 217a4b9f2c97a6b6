"""The requested table exists only inside an embedded PDF.

Skill: noticing that the heading naming the table is followed by an ``<embed>``,
``<object>`` or ``<iframe>`` pointing at a PDF rather than by an HTML table, and abstaining
with evidence (the viewer's id or the PDF's URL) instead of answering from another table.
Shortcuts resisted: the request is word-for-word the solvable ``column_by_header`` request;
a decoy HTML table with another caption (often the same subject, another period) holds the
asked header and its near-duplicate, so "first table with that header" answers wrongly; the
solvable twin sometimes offers a PDF download too, so a PDF link alone proves nothing.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import pools
from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import (
    ArchetypeSpec,
    Category,
    Difficulty,
    Generated,
    LimitationInfo,
    LimitReason,
)
from bs4_env.tasks.rng import token


def _viewer(rng: Random, element_id: str, url: str, caption: str) -> str:
    kind = rng.randrange(3)
    if kind == 0:
        return (
            f'<embed id="{element_id}" type="application/pdf" src="{url}" width="100%" '
            'height="640">'
        )
    if kind == 1:
        return (
            f'<object id="{element_id}" data="{url}" type="application/pdf" width="100%" '
            'height="640"><p>Your browser cannot display this document.</p></object>'
        )
    return (
        f'<iframe id="{element_id}" src="{url}#view=FitH" title="{escape(caption)}" '
        'width="100%" height="640" loading="lazy"></iframe>'
    )


def generate(rng: Random) -> Generated:
    caption, decoy_caption = tb.captions(rng, 2)
    pair = tb.column_pair(rng)
    element_id = f"{rng.choice(('pdf', 'doc', 'viewer', 'report'))}-{token(rng, 7)}"
    slug = caption.lower().split(" ")[0]
    filename = f"{slug}-{token(rng, 10)}.pdf"
    url = f"/docs/{filename}"
    tag = rng.choice(("h2", "h2", "h3"))
    intro = (
        f"<p>{escape(pools.sentence(rng, rng.randint(6, 12)))}</p>" if rng.random() < 0.5 else ""
    )
    target = (
        f'<section class="table-block"><{tag} class="section-title">{escape(caption)}</{tag}>'
        f"{intro}\n{_viewer(rng, element_id, url, caption)}{tb.pdf_link(rng, url)}</section>"
    )
    sections = [target, tb.column_block(rng, decoy_caption, pair)[0]]
    rng.shuffle(sections)
    html = wrap_page(
        rng,
        title=pools.sentence(rng, 3).rstrip("."),
        main_html="\n".join(sections),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Reports"),
    )
    query = queries.column_by_header(caption, pair[0].header)
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        truth=None,
        limitation=LimitationInfo(
            reasons=(LimitReason.PDF_EMBED,), evidence_tokens=(element_id, url, filename)
        ),
    )


ARCHETYPE = ArchetypeSpec(
    id="pdf_embed",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=1,
    phase="phase2",
    description="The requested table is only inside an embedded PDF; a decoy HTML table is near.",
    answer_schema=queries.COLUMN_SCHEMA,
    generate=generate,
)
