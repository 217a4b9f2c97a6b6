"""How many distinct products one catalogue section lists, counted by SKU.

Skill: scoping to the section found by its exact heading, collecting every card's
``data-sku`` there (featured strip and grid alike) and counting the set, as the request's
dedupe rule says.
Shortcuts resisted: ``len(section.find_all(class_="product-card"))`` overcounts (the
featured strip repeats grid products and sponsored re-listings repeat others); the
"N results" line counts cards, not products; repeats write the name in other letter case
and spacing, so counting distinct name texts overcounts, and two different SKUs can share
one name, so counting casefolded names can undercount; counting ``data-sku`` over the whole
page adds a "Recently viewed" strip and a look-alike section with the same card markup.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import aggregation_pools as agg
from bs4_env.tasks.html import feeds, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

Product = tuple[str, str, str, str]  # (name, sku, href, price)


def _products(rng: Random, n: int, symbol: str) -> list[Product]:
    names = pools.unique(rng, pools.product_name, n)
    skus = pools.unique(rng, pools.sku, n)
    if rng.random() < 0.5:
        # A second edition under its own SKU with the very same name.
        names[rng.randrange(1, n)] = names[0]
    return [
        (name, sku, f"/p/{token(rng, 8)}", agg.money(rng.randint(500, 250_000), symbol))
        for name, sku in zip(names, skus, strict=True)
    ]


def _card(rng: Random, product: Product, respelled: bool, extra: str = "") -> str:
    name, sku, href, price = product
    shown = agg.respell(rng, name) if respelled else name
    return agg.product_card(rng, shown, sku, href, price, extra)


def _section(rng: Random, title: str, products: list[Product], extra_dupes: int) -> str:
    """A section: a featured strip repeating some products, then the grid with re-listings."""
    featured = [
        _card(rng, p, True) for p in rng.sample(products, min(len(products), rng.randint(3, 6)))
    ]
    grid = [_card(rng, p, False) for p in products]
    for product in rng.sample(products, extra_dupes):
        grid.insert(rng.randint(0, len(grid)), _card(rng, product, True, "sponsored"))
    return (
        f'<section class="catalogue" id="cat-{token(rng, 6)}"><h2>{escape(title)}</h2>'
        f'<div class="featured-strip"><h3>Featured</h3><div class="strip">{"".join(featured)}'
        f'</div></div><p class="result-count">{len(grid)} results</p>'
        f'<div class="grid">{"".join(grid)}</div></section>'
    )


def generate(rng: Random) -> Generated:
    section, other_section = pools.unique(rng, feeds.section_name, 2)
    symbol = rng.choice(("$", "£"))
    count = rng.randint(12, 140)
    products = _products(rng, count, symbol)
    target = _section(rng, section, products, rng.randint(2, max(3, count // 6)))
    # The look-alike section and the recently viewed strip share SKUs with the target and
    # always add at least one SKU of their own.
    strangers = _products(rng, rng.randint(4, 9), symbol)
    look_alike = _section(rng, other_section, strangers[1:] + rng.sample(products, 2), 1)
    recent = [_card(rng, p, rng.random() < 0.5) for p in [strangers[0], *rng.sample(products, 2)]]
    rng.shuffle(recent)
    sidebar = (
        '<aside class="recently-viewed"><h2>Recently viewed</h2>'
        f'<div class="strip">{"".join(recent)}</div></aside>'
    )
    blocks = [target, look_alike, sidebar]
    rng.shuffle(blocks)
    html = wrap_page(
        rng,
        title=section,
        main_html="\n".join(blocks),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Shop", section.split(" ")[0]),
    )
    query = (
        f'How many distinct products are listed in the "{section}" section (its featured strip '
        "and its grid)? The same product can appear more than once there, with its name "
        "written differently; count distinct products by their SKU (the data-sku attribute)."
    )
    truth = len({sku for _, sku, _, _ in products})
    return Generated(html=html, query=query, query_template="count_distinct_dedupe", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="count_distinct_dedupe",
    category=Category.AGGREGATION,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="Count distinct products of one section by data-sku; repeats, look-alikes.",
    answer_schema="an integer, the number of distinct SKUs in that section (e.g. 7)",
    generate=generate,
)
