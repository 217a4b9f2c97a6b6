"""The value next to a label in one spec section, across whitespace and comment siblings.

Skill: locating a label element (``<dt>``, ``<th>`` or a key ``<span>``) inside the right
section, then stepping to its value with ``find_next_sibling()``: the label's raw
``.next_sibling`` is a whitespace ``NavigableString`` or a ``Comment``, not the value tag.
Shortcuts resisted: the same label appears in another section (packaging, an accessory)
with a different value, so a page-wide ``find(string=label)`` is a coin flip; the markup
(definition list, table or key/value spans) varies per seed and per section; some values
have inline tags inside, so ``.string`` is ``None`` and ``get_text()`` is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token


def _weight(rng: Random) -> str:
    if rng.random() < 0.5:
        return f"{rng.randint(80, 990)} g"
    return f"{rng.randint(1, 24)}.{rng.randint(0, 99):02d} kg"


def _dimensions(rng: Random) -> str:
    return " × ".join(str(rng.randint(4, 120)) for _ in range(3)) + " cm"


# Labels that may be asked about: each value has thousands of possible spellings.
_TARGETS: dict[str, Callable[[Random], str]] = {
    "Weight": _weight,
    "Dimensions": _dimensions,
    "Model number": pools.sku,
    "Release date": pools.date_iso,
    "Battery capacity": lambda rng: f"{rng.randint(800, 9999)} mAh",
    "Power draw": lambda rng: f"{rng.randint(3, 2400)} W",
}
_FILLERS: dict[str, Callable[[Random], str]] = {
    "Warranty": lambda rng: f"{rng.randint(1, 5)} years",
    "Material": lambda rng: rng.choice(("Recycled aluminium", "ABS plastic", "Oak veneer")),
    "Colour": lambda rng: f"{rng.choice(pools.ADJECTIVES)} grey",
    "Country of origin": lambda rng: rng.choice(("Portugal", "Vietnam", "Mexico", "Poland")),
    "Connectivity": lambda rng: rng.choice(("Bluetooth 5.3", "Wi-Fi 6", "USB-C", "None")),
}
_DECOY_TITLES = ("Packaging", "Shipping details", "Included accessory", "Previous model")


def _gap(rng: Random) -> str:
    """What sits between a label and its value: whitespace, sometimes around a comment."""
    return rng.choice(("\n    ", "\n    <!-- value -->\n    ", " <!--spec--> ", "\n\n      "))


def _value_html(rng: Random, value: str) -> str:
    head, _, tail = value.partition(" ")
    if tail and rng.random() < 0.35:
        return f'<span class="num">{escape(head)}</span> {escape(tail)}'
    return escape(value)


def _block(rng: Random, pairs: list[tuple[str, str]]) -> str:
    style = rng.randrange(3)
    rows = []
    for label, value in pairs:
        key, val, gap = escape(label), _value_html(rng, value), _gap(rng)
        if style == 0:
            rows.append(f"<dt>{key}</dt>{gap}<dd>{val}</dd>")
        elif style == 1:
            rows.append(f'<tr>\n  <th scope="row">{key}</th>{gap}<td>{val}</td>\n</tr>')
        else:
            rows.append(
                f'<li class="spec"><span class="spec-key">{key}</span>{gap}'
                f'<span class="spec-val">{val}</span></li>'
            )
    inner = "\n".join(rows)
    if style == 0:
        return f'<dl class="specs">\n{inner}\n</dl>'
    if style == 1:
        return f'<table class="specs">\n<tbody>\n{inner}\n</tbody>\n</table>'
    return f'<ul class="spec-list">\n{inner}\n</ul>'


def _pairs(rng: Random, label: str, value: str) -> list[tuple[str, str]]:
    """The asked label plus a few others, in a random order."""
    others = [k for k in (*_TARGETS, *_FILLERS) if k != label]
    chosen = rng.sample(others, rng.randint(3, 6))
    pairs = [(k, {**_TARGETS, **_FILLERS}[k](rng)) for k in chosen]
    pairs.insert(rng.randint(0, len(pairs)), (label, value))
    return pairs


def generate(rng: Random) -> Generated:
    label = rng.choice(tuple(_TARGETS))
    make = _TARGETS[label]
    value = make(rng)
    product = pools.product_name(rng)
    title = rng.choice(("Technical specifications", "Specifications", "Tech specs"))
    sections = [(title, _pairs(rng, label, value))]
    for decoy_title in rng.sample(_DECOY_TITLES, rng.randint(1, 2)):
        decoy_value = make(rng)
        while decoy_value == value:
            decoy_value = make(rng)
        sections.append((decoy_title, _pairs(rng, label, decoy_value)))
    rng.shuffle(sections)
    body = "\n".join(
        f'<section class="spec-section" id="sec-{token(rng, 5)}">\n<h2>{escape(heading)}</h2>\n'
        f"{_block(rng, pairs)}\n</section>"
        for heading, pairs in sections
    )
    main = (
        f'<h1 class="product-title">{escape(product)}</h1>'
        f'<p class="summary">{escape(pools.sentence(rng, 14))}</p>\n{body}'
    )
    query = (
        f'On this product page, what value is listed for "{label}" in the "{title}" section? '
        "Return the value's text exactly as displayed (trimmed)."
    )
    html = wrap_page(rng, title=product, main_html=main, difficulty=ARCHETYPE.difficulty)
    return Generated(html=html, query=query, query_template="sibling_whitespace", truth=value)


ARCHETYPE = ArchetypeSpec(
    id="sibling_whitespace",
    category=Category.TRAVERSAL,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    description="Value next to a label in one spec section; siblings include whitespace/comments.",
    answer_schema="a string, the value's text as displayed",
    generate=generate,
)
