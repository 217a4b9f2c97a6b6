"""One value from the HTML-escaped JSON in a product tile's ``data-props`` attribute.

Skill: ``json.loads(tile["data-props"])``: BeautifulSoup has already turned ``&quot;``,
``&#34;``, ``&#39;`` and ``&amp;`` back into characters, so the attribute value is plain
JSON; then reading the key (a nested one for the price) and keeping its JSON type.
Shortcuts resisted: a regex over the raw HTML sees ``&quot;`` (or a single-quoted
attribute with raw quotes, depending on the page), and the tagline holds JSON-escaped
quotes inside HTML-escaped ones (``\\&quot;``), an ampersand and an angle bracket; every
tile has the same keys, so the tile is found by its product name; stock is a number and
the price amount a string, and no type coercion is applied.
"""

from __future__ import annotations

import json
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, JSONValue
from bs4_env.tasks.rng import token

_KEYS = ("sku", "stock", "warehouse", "tagline", "amount")


def _props(rng: Random, name: str) -> dict[str, JSONValue]:
    rated = rng.choice(("best buy", "editor's pick", "top value", "quiet pick"))
    tagline = f'Rated "{rated}" by {rng.choice(pools.COMPANIES)} & <{rng.randint(2, 40)} dB'
    return {
        "id": rng.randint(10_000, 999_999),
        "name": name,
        "sku": pools.sku(rng),
        "stock": rng.randint(0, 999),
        "warehouse": rng.choice(pools.CITIES),
        "tagline": tagline,
        "price": {"amount": f"{rng.randint(5, 2000)}.{rng.randint(0, 99):02d}", "currency": "EUR"},
    }


def _attribute(rng: Random, props: dict[str, JSONValue]) -> str:
    """``data-props=...`` written as one of the ways templates escape JSON into HTML."""
    text = json.dumps(props, ensure_ascii=rng.random() < 0.5)
    style = rng.randrange(3)
    if style == 0:
        return f'data-props="{escape(text, quote=True)}"'
    if style == 1:
        return f'data-props="{escape(text, quote=False).replace(chr(34), "&#34;")}"'
    return f"data-props='{escape(text, quote=False).replace(chr(39), '&#39;')}'"


def generate(rng: Random) -> Generated:
    names = pools.unique(rng, pools.product_name, rng.randint(3, 6))
    all_props = [_props(rng, name) for name in names]
    tiles = "".join(
        f'<div class="product-tile" data-component="ProductTile" {_attribute(rng, props)}>'
        f'<h3 class="tile-name">{escape(name)}</h3>'
        f'<p class="teaser">{escape(pools.sentence(rng, 7))}</p>'
        f'<a class="tile-link" href="/p/{token(rng, 8)}">View</a></div>'
        for name, props in zip(names, all_props, strict=True)
    )
    target = rng.randrange(len(names))
    key = rng.choice(_KEYS)
    main = f'<h1>Shop the range</h1><div class="tiles">{tiles}</div>'
    html = wrap_page(rng, title="Shop the range", main_html=main, difficulty=ARCHETYPE.difficulty)
    lead = (
        f'The product tile of "{names[target]}" keeps its data as JSON in its data-props attribute.'
    )
    props = all_props[target]
    if key == "amount":
        price = props["price"]
        if not isinstance(price, dict):
            raise TypeError("price must be an object")
        query = f'{lead} What is the value of "amount" inside its "price" object?'
        truth: JSONValue = price["amount"]
    else:
        query = f'{lead} What is the value of "{key}" in that JSON?'
        truth = props[key]
    return Generated(html=html, query=query, query_template="json_attribute_value", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="json_attribute_value",
    category=Category.ENCODING,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="A value (typed) from HTML-escaped JSON in a tile's data-props attribute.",
    answer_schema=(
        "the JSON value exactly as stored there: a number stays a number and a string stays a "
        'string (e.g. 42 or "AB-1234")'
    ),
    generate=generate,
)
