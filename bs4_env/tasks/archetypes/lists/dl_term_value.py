"""The value listed for one term of a product's specification list (``<dl>``).

Skill: reading a definition list: find the ``<dt>`` whose text is the term, then its
``<dd>`` with ``dt.find_next_sibling("dd")``.
Shortcuts resisted: the list has several terms, so "the first ``<dd>``" is wrong on most
seeds; values are drawn from wide ranges (numbers with units, colours, materials), so no
value is common across seeds; the term is never the first one listed.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import list_pools, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    name = pools.product_name(rng)
    terms = rng.sample(list(list_pools.SINGLE_VALUED), rng.randint(4, 6))
    values = [list_pools.SINGLE_VALUED[term](rng) for term in terms]
    target = rng.randrange(1, len(terms))
    rows = "".join(
        f"<dt>{escape(term)}</dt><dd>{escape(value)}</dd>"
        for term, value in zip(terms, values, strict=True)
    )
    main = (
        f'<article class="product"><h1>{escape(name)}</h1>'
        f"<p>{escape(pools.sentence(rng, 9))}</p>"
        f'<h2>Specifications</h2><dl class="specs">{rows}</dl></article>'
    )
    html = wrap_page(rng, title=name, main_html=main, difficulty=ARCHETYPE.difficulty)
    query = f'In the product\'s specifications, what value is listed for "{terms[target]}"?'
    return Generated(html=html, query=query, query_template="dl_term_value", truth=values[target])


ARCHETYPE = ArchetypeSpec(
    id="dl_term_value",
    category=Category.LISTS,
    difficulty=Difficulty.PRIMER,
    solvable=True,
    version=1,
    phase="phase2",
    description="The value (dd) listed for one term (dt) of a small specification list.",
    answer_schema='a string, the text of the value listed next to that term (e.g. "1.2 kg")',
    generate=generate,
)
