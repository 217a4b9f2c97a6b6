"""Several properties of one top-level schema.org Product item in microdata.

Skill: walking microdata items properly: a property belongs to its nearest enclosing
``itemscope``; nested items (``brand``, ``offers``, ``aggregateRating``) are read through
the property that holds them; values follow the microdata rules (a ``<meta>``'s
``content``, a ``<link>``'s ``href``, otherwise the text), so the price is ``1249.00``
from the meta tag, not the displayed ``$1,249.00``.
Shortcuts resisted: inside the requested card, a nested related Product (with its own
``sku`` and offer ``price``) and Reviews (with their own ``ratingValue`` and author
``name``) sit before the product's own properties on many seeds, so "first ``itemprop``
inside the card" is wrong; another card nests a stub of the requested product (same name
and sku, a bundle price), so the item must be the top-level one; the brand's ``name`` is a
nested ``meta``; other cards carry the same structure.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import microdata, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_FIELDS = (
    '"sku" (its own sku), "brand" (the name of its brand), "price" and "priceCurrency" (of '
    'its offer) and "ratingValue" (of its aggregate rating)'
)


def generate(rng: Random) -> Generated:
    names = pools.unique(rng, pools.product_name, rng.randint(4, 6))
    products = [microdata.draw_product(rng, name) for name in names]
    target, *others = products
    bundle = microdata.draw_product(rng, target.name)
    bundle = microdata.Product(
        target.name, target.sku, target.brand, bundle.price, target.currency, target.rating
    )
    extra = microdata.draw_product(rng, pools.product_name(rng))
    nested = [microdata.review(rng) for _ in range(rng.randint(1, 2))]
    if rng.random() < 0.7:
        nested.append(microdata.related_stub(rng, extra))
    cards = [microdata.product_card(rng, target, nested)]
    host = rng.randrange(len(others))
    for index, other in enumerate(others):
        inner = [microdata.related_stub(rng, bundle)] if index == host else []
        inner += [microdata.review(rng) for _ in range(rng.randint(0, 1))]
        cards.append(microdata.product_card(rng, other, inner))
    rng.shuffle(cards)
    section = rng.choice(pools.NOUNS)
    main = (
        f'<section class="category"><h1>{escape(section)}s</h1>'
        f'<div class="grid">{"".join(cards)}</div></section>'
    )
    html = wrap_page(
        rng,
        title=f"{section}s",
        main_html=main,
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Shop", f"{section}s"),
    )
    query = (
        "Using the page's schema.org microdata, describe the top-level Product item (not one "
        f'nested inside another item) named "{target.name}": return an object with {_FIELDS}. '
        "Take each value as microdata defines it: a <meta>'s content, a <link>'s or <a>'s href, "
        "an <img>'s src, otherwise the element's text."
    )
    truth = {
        "sku": target.sku,
        "brand": target.brand,
        "price": target.price,
        "priceCurrency": target.currency,
        "ratingValue": target.rating,
    }
    return Generated(html=html, query=query, query_template="microdata_product", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="microdata_product",
    category=Category.STRUCTURED,
    difficulty=Difficulty.HARD,
    solvable=True,
    version=5,
    phase="phase2",
    description="Own and nested-item properties of one Product item; nested items leak props.",
    answer_schema=(
        'an object with string values, e.g. {"sku": "ABC-1234", "brand": "Acme Home", '
        '"price": "1249.00", "priceCurrency": "USD", "ratingValue": "4.6"}'
    ),
    generate=generate,
)
