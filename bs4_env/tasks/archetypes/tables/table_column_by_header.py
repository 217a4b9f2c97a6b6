"""Every value of one named column of a captioned table, body rows only.

Skill: mapping a header text to its column index (exact, whitespace-safe match), then
reading that cell from each body row while skipping the header and the ``<tfoot>`` totals.
Shortcuts resisted: a near-duplicate header sits right beside the asked one ("Amount" vs
"Amount (old)", in either direction), so substring or prefix matching picks the wrong
column; the column's position varies per seed; a decoy table with another caption has the
same headers; the totals row looks like a body row to ``find_all("tr")``.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import pools
from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    caption, decoy_caption = tb.captions(rng, 2)
    pair = tb.column_pair(rng)
    target, rows, headers = tb.column_block(rng, caption, pair)
    index = headers.index(pair[0].header)
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
        truth=[row[index] for row in rows],
    )


ARCHETYPE = ArchetypeSpec(
    id="table_column_by_header",
    category=Category.TABLES,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=7,
    description="One column of a captioned table by exact header, beside a near-duplicate column.",
    answer_schema=queries.COLUMN_SCHEMA,
    generate=generate,
)
