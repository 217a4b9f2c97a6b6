"""The number a browser shows next to one item of an ordered list (``start``, ``reversed``,
``<li value>``).

Skill: computing an ``<ol>``'s displayed numbering from its attributes: the first item
gets ``start`` (default 1, or the item count when ``reversed``), each next item one more
(or one less), and ``<li value="N">`` sets that item's number and the count after it; only
the list's own items count (``find_all("li", recursive=False)``), not those of a nested list.
Shortcuts resisted: "position in the list" is wrong whenever ``start`` is set; ``start +
index`` is wrong after a ``value`` (ties, skipped places) and on reversed lists; a nested
``<ol>`` of variants inside some items makes ``find_all("li")`` miscount; last week's list
holds the same items with other numbers; markup is sometimes upper-case with unquoted
attributes (``<OL START=41>``), which every parser reads alike.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import list_pools, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_TITLES = (
    ("This week's bestsellers", "Last week's bestsellers"),
    ("Readers' choice 2026", "Readers' choice 2025"),
    ("Staff ranking", "Customer ranking"),
    ("Most wished for", "Most returned"),
)


def _numbering(rng: Random, count: int) -> tuple[int | None, bool, list[int | None]]:
    """(start attribute, reversed, per-item value attributes) of one list."""
    mode = rng.randrange(20)
    reversed_ = mode >= 12
    # Reversed without start counts down to 1: rare, so small numbers stay uncommon answers.
    if mode == 19:
        return None, True, [None] * count
    # Reversed lists start high enough that skipped places never reach zero.
    start = rng.randint(count + 25, 320) if reversed_ else rng.randint(2, 300)
    values: list[int | None] = [None] * count
    if mode % 2:  # some items carry a value attribute (ties, skipped places)
        step = -1 if reversed_ else 1
        for at in sorted(rng.sample(range(1, count), rng.randint(1, 2))):
            shown = list_pools.displayed_numbers(count, start, reversed_, values)
            tie = rng.random() < 0.5
            values[at] = shown[at - 1] if tie else shown[at - 1] + step * rng.randint(2, 6)
    return start, reversed_, values


def _ol(
    rng: Random, names: list[str], start: int | None, reversed_: bool, values: list[int | None]
) -> str:
    upper = rng.random() < 0.3
    attrs = ""
    if start is not None:
        attrs += f" START={start}" if upper else f' start="{start}"'
    if reversed_:
        attrs += " REVERSED" if upper else " reversed"
    items = []
    for name, value in zip(names, values, strict=True):
        value_attr = "" if value is None else (f" VALUE={value}" if upper else f" value={value}")
        nested = ""
        if rng.random() < 0.3:
            variants = "".join(f"<li>{c}</li>" for c in rng.sample(list_pools.COLOURS, 2))
            nested = f'<ol class="variants">{variants}</ol>'
        tag = "LI" if upper else "li"
        items.append(
            f'<{tag}{value_attr}><span class="title">{escape(name)}</span> '
            f'<span class="meta">{rng.randint(3, 990)} sold</span>{nested}</{tag}>'
        )
    tag = "OL" if upper else "ol"
    return f'<{tag} class="ranking"{attrs}>{"".join(items)}</{tag}>'


def generate(rng: Random) -> Generated:
    count = rng.randint(6, 12)
    names = pools.unique(rng, pools.product_name, count)
    start, reversed_, values = _numbering(rng, count)
    shown = list_pools.displayed_numbers(count, start, reversed_, values)
    target = rng.randrange(count)
    title, other_title = rng.choice(_TITLES)
    other_names = rng.sample(names, count)
    other_start, other_reversed, other_values = _numbering(rng, count)
    sections = [
        f"<section><h2>{escape(t)}</h2>{_ol(rng, n, s, r, v)}</section>"
        for t, n, s, r, v in (
            (title, names, start, reversed_, values),
            (other_title, other_names, other_start, other_reversed, other_values),
        )
    ]
    rng.shuffle(sections)
    main = f"<h1>Charts</h1><p>{escape(pools.sentence(rng, 10))}</p>" + "\n".join(sections)
    html = wrap_page(rng, title="Charts", main_html=main, difficulty=ARCHETYPE.difficulty)
    query = f'In the list "{title}", what number does the page show next to "{names[target]}"?'
    return Generated(
        html=html, query=query, query_template="ol_displayed_number", truth=shown[target]
    )


ARCHETYPE = ArchetypeSpec(
    id="ol_displayed_number",
    category=Category.LISTS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Displayed number of an ol item: start, reversed, li value, nested lists.",
    answer_schema="an integer, the number a browser displays before that list item (e.g. 17)",
    generate=generate,
)
