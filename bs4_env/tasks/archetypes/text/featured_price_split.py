"""The featured product's current price, written across inline tags, ``<wbr>`` and ``&nbsp;``.

Skill: reading a price as displayed: ``get_text()`` (no separator) on the current-price
element, then collapsing whitespace (``&nbsp;`` and the narrow no-break space are
whitespace to ``str.split()``); the element is found from the product's heading and is the
``price current`` one outside the crossed-out old price.
Shortcuts resisted: the sign, the whole units and the cents sit in separate spans or a
``<sup>`` on every page, so ``get_text(" ", strip=True)`` (and ``stripped_strings``)
answer "$ 1,249 .00"; a ``<wbr>`` inside the number defeats regexes over the raw HTML;
the old price (``<del>``/``<s>``) and related products' prices use the same markup and
format; the shared ``featured_price`` request (same wording and product pool as its
limitation twins).
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import listing, pools, price_split
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_CURRENT = ("price current", "current price", "price price--sale current")
_OLD = ('<del class="price old">{}</del>', '<s class="price was">{}</s>')


def generate(rng: Random) -> Generated:
    st = price_split.style(rng)
    name = pools.product_name(rng)
    amount = price_split.cents(rng)
    old = amount + rng.randint(5, 40) * amount // 100 + rng.randint(1, 99)
    box = [
        rng.choice(_OLD).format(price_split.markup(rng, st, old)),
        f'<span class="{rng.choice(_CURRENT)}">{price_split.markup(rng, st, amount)}</span>',
    ]
    if rng.random() < 0.5:
        box.reverse()
    featured = listing.featured_article(rng, name, f'<div class="price-box">{"".join(box)}</div>')
    cards = "".join(
        listing.product_card(
            rng, other, price_split.markup(rng, st, price_split.cents(rng)), "price current"
        )
        for other in listing.other_products(rng, name, rng.randint(2, 4))
    )
    related = (
        f'<section class="related-products"><h2>{rng.choice(("Related", "You may also like"))}'
        f'</h2><div class="cards">{cards}</div></section>'
    )
    sections = [featured, related]
    rng.shuffle(sections)
    html = wrap_page(
        rng,
        title=name,
        main_html="\n".join(sections),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Shop", rng.choice(pools.NOUNS)),
    )
    query = queries.featured_price(name)
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        truth=price_split.displayed(st, amount),
    )


ARCHETYPE = ArchetypeSpec(
    id="featured_price_split",
    category=Category.TEXT,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=6,
    phase="phase2",
    description="Featured current price split across sign/cents spans, <sup>, <wbr>, &nbsp;.",
    answer_schema=queries.PRICE_SCHEMA,
    generate=generate,
)
