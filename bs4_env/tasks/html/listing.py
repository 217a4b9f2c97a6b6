"""Shop-listing helpers: currency styles, price markup and related-product cards.

One page uses one currency style throughout, so a decoy price cannot be told apart from the
real one by its format; the styles differ across seeds so no single price string is common.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import between, token

PriceFormat = Callable[[int], str]


def _usd(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _gbp(cents: int) -> str:
    return f"£{cents // 100}.{cents % 100:02d}"


def _eur_suffix(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d} €"


def _eur_prefix(cents: int) -> str:
    return f"€{cents // 100},{cents % 100:02d}"


_STYLES: tuple[PriceFormat, ...] = (_usd, _usd, _gbp, _eur_suffix, _eur_prefix)


def price_style(rng: Random) -> PriceFormat:
    """A formatter from integer cents to a displayed price, fixed for one page."""
    return rng.choice(_STYLES)


def cents(rng: Random, low: int = 5, high: int = 900) -> int:
    return between(rng, low * 100, high * 100 + 99)


def price_markup(rng: Random, text: str) -> str:
    """Inline HTML that renders as ``text``, sometimes with the currency or cents in a tag."""
    style = rng.randint(0, 3)
    symbol = next((ch for ch in text if ch in "$£€"), "")
    if style == 1 and symbol:
        head, _, tail = text.partition(symbol)
        return f'{escape(head)}<span class="currency">{symbol}</span>{escape(tail)}'
    if style == 2 and text[-3] in ".,":
        return f"{escape(text[:-3])}<sup>{escape(text[-3:])}</sup>"
    if style == 2 and text.endswith(" €"):
        return f"{escape(text[:-5])}<sup>{escape(text[-5:-2])}</sup> €"
    return escape(text)


def product_card(rng: Random, name: str, price_html: str, price_class: str = "price") -> str:
    """A small card for a related or recommended product."""
    return (
        f'<div class="card product-card" data-id="{rng.randint(100_000, 9_999_999)}">'
        f'<a href="/p/{token(rng, 8)}"><img src="/media/thumbs/{token(rng, 8)}.jpg" '
        f'alt="{escape(name)}"></a><h3 class="card-title"><a href="/p/{token(rng, 8)}">'
        f'{escape(name)}</a></h3><span class="{price_class}">{price_html}</span></div>'
    )


def other_products(rng: Random, exclude: str, n: int) -> list[str]:
    """``n`` distinct product names different from ``exclude``."""
    names = pools.unique(rng, pools.product_name, n + 1)
    return [name for name in names if name != exclude][:n]


_WRAPPERS = ("product-detail", "product featured", "pdp-main", "product-page hero-product")


def featured_article(rng: Random, name: str, price_box: str) -> str:
    """The featured product block of a product page (shared by a solvable page and its
    limitation twin, so the two read alike)."""
    return (
        f'<article class="{rng.choice(_WRAPPERS)}" id="product-{token(rng, 6)}" '
        f'data-sku="{pools.sku(rng)}">'
        f'<div class="media"><img src="/media/{token(rng, 10)}.jpg" alt="{escape(name)}"></div>'
        f'<div class="summary"><h1 class="product-title">{escape(name)}</h1>'
        f'<p class="rating">{rng.randint(30, 50) / 10} stars · '
        f'<a href="#reviews">{rng.randint(2, 900)} reviews</a></p>{price_box}'
        f'<p class="description">{escape(pools.sentence(rng, rng.randint(10, 20)))}</p>'
        '<button class="add-to-cart" type="button">Add to cart</button></div></article>'
    )


def related_section(rng: Random, name: str, fmt: PriceFormat) -> str:
    """Related-product cards whose prices use the same classes as the featured price."""
    current_class = "price current" if rng.random() < 0.5 else "price"
    cards = "".join(
        product_card(rng, other, escape(fmt(cents(rng))), current_class)
        for other in other_products(rng, name, rng.randint(2, 4))
    )
    return (
        f'<section class="related-products"><h2>{rng.choice(("Related", "You may also like"))}'
        f'</h2><div class="cards">{cards}</div></section>'
    )
