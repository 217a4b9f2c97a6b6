"""Texts of all elements with one CSS class (``class`` is a Python keyword).

Skill: ``find_all(class_="...")`` or ``select(".name")``; ``find_all(class="...")`` is a
syntax error and ``attrs={"class": ...}`` must be spelled out. ``class`` is multi-valued, so
an element with ``class="badge badge-x"`` counts too.
Shortcuts resisted: the seed-random class name also appears as a substring of other classes
(``badge-x-old``, ``badge-xy``), as an ``id`` and in a ``data-`` attribute of elements that
do not carry the class, so regex or substring searches over the HTML over-collect.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, JSONValue
from bs4_env.tasks.rng import token

_PREFIXES = ("badge", "tag", "label", "chip", "pill")


def _decoy_attrs(rng: Random, cls: str, prefix: str) -> str:
    """Attributes that mention the class name without giving the element that class."""
    kind = rng.randint(0, 4)
    if kind == 0:
        return f'class="{prefix} {cls}-old"'
    if kind == 1:
        return f'class="{cls}{rng.choice("abcdefgh")}"'
    if kind == 2:
        return f'id="{cls}" class="{prefix}"'
    if kind == 3:
        return f'class="{prefix}" data-class="{cls}"'
    return f'class="{prefix}-{token(rng, 4)} old-{cls}"'


def generate(rng: Random) -> Generated:
    prefix = rng.choice(_PREFIXES)
    cls = f"{prefix}-{token(rng, 4)}"
    names = pools.unique(rng, pools.product_name, rng.randint(6, 9))
    n_targets = rng.randint(2, min(4, len(names) - 3))
    target_set = rng.sample(range(len(names)), n_targets)
    items = []
    truth: list[str] = []
    id_used = False
    for index, name in enumerate(names):
        if index in target_set:
            attrs = f'class="{rng.choice((cls, f"{prefix} {cls}", f"{cls} {prefix}-lg"))}"'
            truth.append(name)
        else:
            attrs = _decoy_attrs(rng, cls, prefix)
            # An id may appear once per page; a second id decoy becomes a data attribute.
            if attrs.startswith("id=") and id_used:
                attrs = f'class="{prefix}" data-class="{cls}"'
            id_used = id_used or attrs.startswith("id=")
        items.append(f'<li class="item"><span {attrs}>{escape(name)}</span></li>')
    main = f'<h1>{escape(pools.sentence(rng, 3)[:-1])}</h1><ul class="items">{"".join(items)}</ul>'
    html = wrap_page(rng, title=prefix.title(), main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f'List the texts of all elements that have the CSS class "{cls}", in document order, '
        "as a list of strings."
    )
    answer: JSONValue = truth
    return Generated(html=html, query=query, query_template="class_keyword", truth=answer)


ARCHETYPE = ArchetypeSpec(
    id="class_keyword",
    category=Category.GOTCHAS,
    difficulty=Difficulty.PRIMER,
    solvable=True,
    version=2,
    description="Texts of all elements carrying one class, among substring and id decoys.",
    answer_schema="a list of strings, the elements' texts in document order",
    generate=generate,
)
