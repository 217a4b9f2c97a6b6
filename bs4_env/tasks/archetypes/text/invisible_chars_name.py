"""A product name as displayed, though its markup holds soft hyphens, zero-width characters
and non-breaking or thin spaces.

Skill: cleaning displayed text: ``get_text()`` returns U+00AD (``&shy;``), U+200B, U+2060
and U+FEFF, which a browser does not show, so they must be removed (``re.sub`` or
``str.translate``); ``&nbsp;``/thin spaces are whitespace to ``str.split()``; the card is
found by its item number (``data-sku`` or the "Item no." line).
Shortcuts resisted: every name on the grid carries at least one invisible character, so
the raw ``get_text()`` (with or without ``strip=True``) never equals the displayed name;
``.string``/``get_text`` with whitespace collapsing alone keeps them (none of them is
whitespace to Python); the references are spelled as named, decimal and hex entities or raw
characters, so replacing one spelling in the raw HTML misses the others.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import listing, pools, text_pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def _card(rng: Random, name: str, sku: str, price: str) -> str:
    sku_attr = f' data-sku="{sku}"' if rng.random() < 0.7 else ""
    return (
        f'<div class="product-card"{sku_attr}><h3 class="name">'
        f"{text_pools.sprinkle_invisible(rng, name)}</h3>"
        f'<p class="sku">Item no. {sku}</p><span class="price">{escape(price)}</span></div>'
    )


def generate(rng: Random) -> Generated:
    names = pools.unique(rng, pools.product_name, rng.randint(4, 8))
    skus = pools.unique(rng, pools.sku, len(names))
    fmt = listing.price_style(rng)
    cards = [
        _card(rng, name, sku, fmt(listing.cents(rng)))
        for name, sku in zip(names, skus, strict=True)
    ]
    target = rng.randrange(len(names))
    category = rng.choice(pools.NOUNS)
    main = (
        f"<h1>{escape(category)} range</h1><p>{escape(pools.sentence(rng, 10))}</p>"
        f'<div class="product-grid">{"".join(cards)}</div>'
    )
    html = wrap_page(
        rng, title=f"{category} range", main_html=main, difficulty=ARCHETYPE.difficulty
    )
    query = f'What is the name of the product with item number "{skus[target]}", as displayed?'
    return Generated(
        html=html, query=query, query_template="invisible_chars_name", truth=names[target]
    )


ARCHETYPE = ArchetypeSpec(
    id="invisible_chars_name",
    category=Category.TEXT,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="A product name whose markup holds soft hyphens, zero-width chars and nbsp.",
    answer_schema=(
        f'a string, the product name (e.g. "Glacier Keyboard Pro") {queries.DISPLAYED}; soft '
        "hyphens and zero-width characters (zero-width space, word joiner, byte-order mark) "
        "are invisible and not part of it, and non-breaking or thin spaces count as ordinary "
        "spaces"
    ),
    generate=generate,
)
