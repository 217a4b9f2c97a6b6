"""A captioned table as a list of row objects keyed by its header texts.

Skill: finding the header cells wherever they are (``<thead>`` or a first ``<tr>`` of
``<th>`` without a thead), zipping them with each body row's ``th``/``td`` cells, and
leaving out the ``<tfoot>`` totals row (which may even precede the body in the source).
Shortcuts resisted: a decoy table with another caption (often the same subject, another
period) sits beside the target in random order; headers can hold nested ``<small>`` text so
``get_text(strip=True)`` produces wrong keys; tbody is sometimes absent (html5lib adds one,
the other parsers do not) and body rows may start with a ``<th scope="row">``.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import pools
from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def _block(rng: Random, caption: str) -> tuple[str, list[dict[str, str]]]:
    """The titled table's markup and its rows as header-keyed dicts."""
    columns = tb.pick_columns(rng, rng.randint(3, 6), first=rng.choice(("Product", "SKU", None)))
    headers = [col.header for col in columns]
    rows = tb.rows_for(rng, columns, rng.randint(2, 7))
    thead = rng.random() < 0.6
    mode = rng.choice((None, "h2", "h2"))
    totals = any(col.numeric for col in columns[1:]) and rng.random() < 0.8
    table = tb.table_html(
        rng,
        headers,
        rows,
        caption=caption if mode is None else None,
        thead=thead,
        tbody=rng.random() < 0.6,
        row_headers=rng.random() < 0.3,
        footer=tb.totals_row(columns, rows) if totals else None,
        footer_first=thead and rng.random() < 0.3,
        noise=0.4,
    )
    return tb.titled(rng, caption, table, mode), [
        dict(zip(headers, row, strict=True)) for row in rows
    ]


def generate(rng: Random) -> Generated:
    caption, decoy_caption = tb.captions(rng, 2)
    target, truth = _block(rng, caption)
    sections = [target, _block(rng, decoy_caption)[0]]
    if rng.random() < 0.4:
        sections.append(tb.layout_table(rng))
    rng.shuffle(sections)
    html = wrap_page(
        rng,
        title=pools.sentence(rng, 3).rstrip("."),
        main_html="\n".join(sections),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Reports", caption.split(" ")[0]),
    )
    query = queries.table_as_dicts(caption)
    return Generated(html=html, query=query.text, query_template=query.template, truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="table_dicts_by_header",
    category=Category.TABLES,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=7,
    description="A captioned table as header-keyed row objects; thead/tbody/tfoot vary.",
    answer_schema=queries.TABLE_DICTS_SCHEMA,
    generate=generate,
)
