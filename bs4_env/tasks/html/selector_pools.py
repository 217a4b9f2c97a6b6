"""Content for the CSS-selector archetypes: ordinals, review cards and fillers between them.

A review list on a real page is rarely a clean run of reviews: ads, promo cards (often the
same tag as a review), month headings and tips sit between them, which is what makes
``:nth-child``/``:nth-of-type`` and "the n-th ``<article>``" answer wrongly.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import token


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... ``11th``, ``12th``, ``13th``, ``21st``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def stars_html(rng: Random, stars: int) -> str:
    """A star rating as sites show it: glyphs, an aria-label and sometimes a data attribute."""
    data = f' data-rating="{stars}"' if rng.random() < 0.5 else ""
    return (
        f'<span class="stars"{data} aria-label="{stars} out of 5">'
        f"{'★' * stars}{'☆' * (5 - stars)}</span>"
    )


def review_card(rng: Random, author: str, stars: int) -> str:
    """One customer review: author, star rating, title and body."""
    return (
        f'<article class="review" id="r-{token(rng, 6)}"><header>'
        f'<span class="review-author">{escape(author)}</span> {stars_html(rng, stars)}'
        f'<h4 class="review-title">{escape(pools.sentence(rng, 3)[:-1])}</h4></header>'
        f"<p>{escape(pools.sentence(rng, rng.randint(8, 16)))}</p></article>"
    )


def promo_article(rng: Random) -> str:
    """A promo card built with the same tag as a review (an ``<article>``)."""
    return (
        f'<article class="promo-card"><h4>{escape(pools.product_name(rng))}</h4>'
        f'<p>{escape(pools.sentence(rng, 6))}</p><a href="/p/{token(rng, 8)}">Shop now</a>'
        "</article>"
    )


def filler(rng: Random) -> str:
    """Something that is not a review between reviews: an ad, a month heading, a tip."""
    kind = rng.randrange(4)
    if kind == 0:
        return (
            f'<div class="ad-slot" id="ad-{token(rng)}"><span class="ad-label">Advertisement'
            f'</span><a href="https://ads.example/c?{token(rng, 8)}" rel="sponsored">'
            f"{escape(pools.product_name(rng))}</a></div>"
        )
    if kind == 1:
        return f'<h3 class="review-group">{rng.choice(pools.MONTHS)} {rng.randint(2019, 2026)}</h3>'
    if kind == 2:
        return f'<aside class="review-tip"><p>Tip: {escape(pools.sentence(rng, 7))}</p></aside>'
    return promo_article(rng)
