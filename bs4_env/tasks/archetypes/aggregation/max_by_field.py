"""The name of the product with the highest price or rating in one listing.

Skill: scoping to the listing found by its heading, parsing one numeric field per card (a
price with a currency sign and thousands separators, or a rating beside a review count)
into a number and taking the card with the maximum, then reading that card's name.
Shortcuts resisted: the listing is sorted by something else, so the first (or last) card
is rarely the answer; a "Recently viewed" sidebar with the same card markup always holds a
higher value, so a page-wide maximum is wrong; comparing price strings ranks "$982.00"
above "$1,204.00"; each card also shows a review count, a larger number than its rating.
Values are distinct, so there is never a tie.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import aggregation_pools as agg
from bs4_env.tasks.html import feeds, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_SORTS = ("Sorted by: Popularity", "Sorted by: Newest", "Sorted by: Relevance", "Featured first")


def _card(rng: Random, name: str, cents: int, rating: int, symbol: str) -> str:
    return (
        f'<li class="card" data-id="{rng.randint(100_000, 9_999_999)}">'
        f'<img src="/media/{token(rng, 8)}.jpg" alt="" loading="lazy">'
        f'<h3 class="card-title"><a href="/p/{token(rng, 8)}">{escape(name)}</a></h3>'
        f'<p class="price">{agg.money(cents, symbol)}</p>'
        f'<p class="rating"><span class="score">{rating / 10:.1f}</span> '
        f'<span class="count">({rng.randint(12, 4000):,} reviews)</span></p></li>'
    )


def _values(rng: Random, field: str, n: int) -> tuple[list[int], list[int]]:
    """``n`` distinct listing values and 2-3 sidebar values, the sidebar's max on top."""
    if field == "price":
        # Some prices below 1,000 start with a 9, so string order differs from numeric.
        values = agg.distinct_ints(rng, n, 50_000, 180_000)
        values[rng.randrange(n)] = rng.randint(90_000, 99_999)
        values = list(dict.fromkeys(values))
        top = max(values)
        return values, [top + rng.randint(1_000, 50_000)] + [
            rng.randint(5_000, top) for _ in range(rng.randint(1, 2))
        ]
    values = agg.distinct_ints(rng, n, 10, 48)
    top = max(values)
    return values, [rng.randint(top + 1, 50)] + [rng.randint(10, top) for _ in range(2)]


def generate(rng: Random) -> Generated:
    section = feeds.section_name(rng)
    field = rng.choice(("price", "rating"))
    names = pools.unique(rng, pools.product_name, rng.randint(6, 14) + 3)
    symbol = rng.choice(("$", "£"))
    values, side_values = _values(rng, field, len(names) - 3)
    listing_names, side_names = names[: len(values)], names[len(values) :]
    cards = []
    for name, value in zip(listing_names, values, strict=False):
        if field == "price":
            cards.append(_card(rng, name, value, rng.randint(10, 50), symbol))
        else:
            cards.append(_card(rng, name, rng.randint(500, 180_000), value, symbol))
    side = []
    for name, value in zip(side_names, side_values, strict=False):
        if field == "price":
            side.append(_card(rng, name, value, rng.randint(10, 50), symbol))
        else:
            side.append(_card(rng, name, rng.randint(500, 180_000), value, symbol))
    rng.shuffle(side)
    main = (
        f'<section class="listing"><h2>{escape(section)}</h2>'
        f'<p class="sort">{rng.choice(_SORTS)}</p><ul class="cards">{"".join(cards)}</ul>'
        '</section><aside class="recently-viewed"><h2>Recently viewed</h2>'
        f'<ul class="cards">{"".join(side)}</ul></aside>'
    )
    html = wrap_page(
        rng,
        title=section,
        main_html=main,
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Shop", section.split(" ")[0]),
    )
    label = "price" if field == "price" else "customer rating (out of 5)"
    query = (
        f'In the "{section}" listing, which product has the highest {label}? Answer with '
        "the product's name."
    )
    truth = listing_names[values.index(max(values))]
    return Generated(html=html, query=query, query_template="max_by_field", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="max_by_field",
    category=Category.AGGREGATION,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=6,
    phase="phase2",
    description="Name of the listing card with the highest price or rating; sidebar decoys.",
    answer_schema='a string, the product name as shown on its card (e.g. "Walnut Side Table")',
    generate=generate,
)
