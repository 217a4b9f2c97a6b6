"""A data table as a list of lists of cell texts (header row first).

Skill: locating a table by its ``<caption>`` or by the heading just above it, then walking
``tr`` and ``th``/``td`` cells with whitespace-safe ``get_text``.
Shortcuts resisted: a layout table and a second data table (often with the same subject and
another period in its caption) sit beside the target in random order, so ``find("table")``
or a substring caption match picks the wrong one; cells carry padding newlines, ``&nbsp;``,
entities and split ``<span>`` pairs, so ``get_text(strip=True)`` glues words together.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import pools
from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def _block(rng: Random, caption: str, headers: list[str], rows: list[list[str]]) -> str:
    mode = rng.choice((None, "h2", "h3"))
    table = tb.table_html(
        rng,
        headers,
        rows,
        caption=caption if mode is None else None,
        thead=rng.random() < 0.6,
        tbody=rng.random() < 0.7,
        row_headers=rng.random() < 0.3,
        noise=0.35,
    )
    return tb.titled(rng, caption, table, mode)


def generate(rng: Random) -> Generated:
    caption, decoy_caption = tb.captions(rng, 2)
    columns = tb.pick_columns(rng, rng.randint(3, 5))
    headers = [col.header for col in columns]
    rows = tb.rows_for(rng, columns, rng.randint(2, 6))
    decoy_columns = tb.pick_columns(rng, rng.randint(3, 5))
    decoy_rows = tb.rows_for(rng, decoy_columns, rng.randint(2, 6))
    blocks = [
        _block(rng, caption, headers, rows),
        _block(rng, decoy_caption, [col.header for col in decoy_columns], decoy_rows),
        tb.layout_table(rng),
    ]
    rng.shuffle(blocks)
    html = wrap_page(
        rng,
        title=pools.sentence(rng, 3).rstrip("."),
        main_html="\n".join(blocks),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Reports"),
    )
    query = (
        f'Return the table titled "{caption}" as a list of rows: the header row first, then '
        "every body row, each row being a list of its cell texts (trimmed, inner whitespace "
        "collapsed to single spaces)."
    )
    return Generated(
        html=html,
        query=query,
        query_template="table_list_of_lists",
        truth=[headers, *rows],
    )


ARCHETYPE = ArchetypeSpec(
    id="table_list_of_lists",
    category=Category.TABLES,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=7,
    description="A captioned data table as rows of cell texts, beside a layout and a decoy table.",
    answer_schema=(
        "a list of lists of strings: the header row, then each body row's cell texts, "
        f"{queries.DISPLAYED}"
    ),
    generate=generate,
)
