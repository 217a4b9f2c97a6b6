"""Current price of the featured product, among many other prices.

Skill: scoping a search to one block (found by its heading) and selecting by a multi-valued
``class`` (``price`` *and* ``current``), while skipping hidden elements.
Shortcuts resisted: every price on the page shares one currency format; the featured block
also holds a crossed-out old price and a hidden variant price (sometimes also classed
``price current``); related-product cards carry ``price`` (sometimes ``price current``)
classes and may come first; a "recently viewed" list repeats the product's name with a
different price, so "first ``.price``" or "price next to the name" answers wrongly.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import listing, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_CURRENT_CLASSES = ("price current", "current price", "price price--sale current", "price current")
_HIDING = ('style="display:none"', "hidden", 'style="display: none;"', 'aria-hidden="true" hidden')
_OLD = (
    '<s class="price old">{}</s>',
    '<span class="price-old">{}</span>',
    '<del class="price old" aria-label="Was">{}</del>',
)


def _price_box(rng: Random, fmt: listing.PriceFormat, current: int) -> tuple[str, list[int]]:
    """The featured price box and the decoy amounts it used (old and hidden prices)."""
    old = (current * rng.randint(110, 150) // 10000 + 1) * 100 - rng.choice((1, 0, 50))
    down = current > 3100 and rng.random() < 0.5
    hidden = current + (-1 if down else 1) * rng.randint(1, 30) * 100
    hidden_class = rng.choice(("price current", "price variant-price"))
    parts = [
        rng.choice(_OLD).format(escape(fmt(old))),
        f'<span class="{rng.choice(_CURRENT_CLASSES)}" itemprop="price">'
        f"{listing.price_markup(rng, fmt(current))}</span>",
    ]
    hidden_html = (
        f'<span class="{hidden_class}" data-variant="{rng.choice(("XL", "Bundle", "Refurb"))}" '
        f"{rng.choice(_HIDING)}>"
        f"{escape(fmt(hidden))}</span>"
    )
    parts.insert(rng.randint(0, 2), hidden_html)
    if rng.random() < 0.6:
        parts.append(f'<span class="badge save">Save {round(100 * (old - current) / old)}%</span>')
    return f'<div class="price-box">{"".join(parts)}</div>', [old, hidden]


def _recently_viewed(rng: Random, fmt: listing.PriceFormat, name: str, amount: int) -> str:
    names = listing.other_products(rng, name, rng.randint(1, 3))
    names.insert(rng.randint(0, len(names)), name)
    items = []
    for item in names:
        value = amount if item == name else listing.cents(rng)
        items.append(
            f'<li class="rv-item"><a class="rv-name" href="/p/{token(rng, 8)}">{escape(item)}</a> '
            f'<span class="{rng.choice(("price", "price current"))}">{escape(fmt(value))}</span>'
            "</li>"
        )
    return (
        '<aside class="recently-viewed"><h2>Recently viewed</h2>'
        f'<ul class="rv-list">{"".join(items)}</ul></aside>'
    )


def generate(rng: Random) -> Generated:
    fmt = listing.price_style(rng)
    name = pools.product_name(rng)
    current = listing.cents(rng, 8, 900)
    box, used = _price_box(rng, fmt, current)
    featured = listing.featured_article(rng, name, box)
    related = listing.related_section(rng, name, fmt)
    # The sidebar's price for the same product differs from every price in the featured block.
    stale = current + rng.choice((-1, 1)) * rng.randint(1, 25) * 100 + rng.randint(1, 49)
    while stale in used or stale <= 0:
        stale += 101
    sections = [featured, related, _recently_viewed(rng, fmt, name, stale)]
    rng.shuffle(sections)
    html = wrap_page(
        rng,
        title=name,
        main_html="\n".join(sections),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Shop", rng.choice(pools.NOUNS)),
    )
    query = queries.featured_price(name)
    return Generated(html=html, query=query.text, query_template=query.template, truth=fmt(current))


ARCHETYPE = ArchetypeSpec(
    id="text_by_class_decoys",
    category=Category.CORE,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=7,
    description="Current price of the featured product among old, hidden and related prices.",
    answer_schema=queries.PRICE_SCHEMA,
    generate=generate,
)
