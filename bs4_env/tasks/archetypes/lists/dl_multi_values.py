"""Every value of one term in a product's spec list: several ``<dd>`` per ``<dt>``.

Skill: reading a definition list by its grouping rule: a term's values are all the
``<dd>`` elements after its ``<dt>`` up to the next ``<dt>`` that follows a ``<dd>``; two
``<dt>`` in a row share the values after them; a ``<div>`` may wrap each group; only the
list's own terms count, not those of a list nested inside a ``<dd>``.
Shortcuts resisted: ``dt.find_next_sibling("dd")`` returns only the first value;
``find_next_siblings("dd")`` runs into later terms; ``find_next("dd")`` from the first of
two ``<dt>`` works but from a nested list lands elsewhere; a nested list (a charging dock's
own specs) repeats the term with other values and comes first in document order on some
pages, so a recursive ``find("dt", string=term)`` picks it; a look-alike spec list of a
compared product sits beside it.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import list_pools, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

Group = tuple[list[str], list[str]]  # (terms, values as HTML)


def _group(terms: list[str], values: list[str]) -> Group:
    return terms, [escape(v) for v in values]


def _groups_html(groups: list[Group], wrap: bool) -> str:
    parts = []
    for terms, values in groups:
        inner = "".join(f"<dt>{escape(t)}</dt>" for t in terms)
        inner += "".join(f"<dd>{v}</dd>" for v in values)
        parts.append(f"<div>{inner}</div>" if wrap else inner)
    return "".join(parts)


def _nested(rng: Random, term: str) -> Group:
    """A charging dock's own spec list inside one value, repeating the queried term."""
    rows = [_group([term], list_pools.multi_values(rng, term))]
    rows.append(_group(["Weight"], [list_pools.SINGLE_VALUED["Weight"](rng)]))
    rng.shuffle(rows)
    return (["Charging dock"], [f'<dl class="sub-specs">{_groups_html(rows, False)}</dl>'])


def _spec_list(rng: Random, term: str, values: list[str], nested_first: bool) -> str:
    """A product's spec list holding ``term`` with ``values`` among other terms."""
    terms = [t for t in list_pools.MULTI_VALUED if t != term]
    groups = [_group([t], list_pools.multi_values(rng, t)) for t in rng.sample(terms, 2)]
    groups += [
        _group([t], [list_pools.SINGLE_VALUED[t](rng)])
        for t in rng.sample(list(list_pools.SINGLE_VALUED), 2)
    ]
    rng.shuffle(groups)
    own: list[str] = [term]
    if rng.random() < 0.35:
        alias = list_pools.ALIASES[term]
        own = [term, alias] if rng.random() < 0.5 else [alias, term]
    at = rng.randint(1, len(groups))
    groups.insert(at, _group(own, values))
    groups.insert(rng.randint(0, at - 1) if nested_first else len(groups), _nested(rng, term))
    return f'<dl class="specs">{_groups_html(groups, rng.random() < 0.4)}</dl>'


def generate(rng: Random) -> Generated:
    term = rng.choice(list(list_pools.MULTI_VALUED))
    names = pools.unique(rng, pools.product_name, 2)
    blocks = []
    truth: list[str] = []
    for index, name in enumerate(names):
        values = list_pools.multi_values(rng, term)
        truth = values if index == 0 else truth
        blocks.append(
            f'<section class="product-specs"><h2>{escape(name)}</h2>'
            f"<p>{escape(pools.sentence(rng, 9))}</p>"
            f"{_spec_list(rng, term, values, rng.random() < 0.5)}</section>"
        )
    rng.shuffle(blocks)
    main = f"<h1>Compare: {escape(names[0])} vs {escape(names[1])}</h1>" + "\n".join(blocks)
    html = wrap_page(rng, title="Compare", main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f'In the specification list of "{names[0]}", what values are given for the term '
        f'"{term}"? A term can have several values; give all of them in order, and ignore '
        "terms inside nested lists."
    )
    return Generated(html=html, query=query, query_template="dl_multi_values", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="dl_multi_values",
    category=Category.LISTS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="All dd values of one dt: shared dts, div groups, nested dl, look-alike list.",
    answer_schema='a list of strings, the term\'s values in page order (e.g. ["USB-C", "HDMI"])',
    generate=generate,
)
