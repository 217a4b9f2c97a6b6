"""schema.org microdata blocks (``itemscope``/``itemtype``/``itemprop``) for ``structured``.

Items nest: a Store holds a ContactPoint (with its own ``telephone``) and a PostalAddress;
a Product holds a Brand (with its own ``name``), an Offer, an AggregateRating, Reviews
and sometimes a related Product. A property belongs to the nearest enclosing
``itemscope``, so "first ``itemprop=X`` inside the item" is wrong whenever a nested
item's property comes first: the builders put nested items before or after the item's
own properties at random.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import token

SCHEMA = "https://schema.org/"


def scope(kind: str, prop: str | None = None) -> str:
    """The attributes that open an item (``itemprop`` first when it is a nested property)."""
    head = f'itemprop="{prop}" ' if prop else ""
    return f'{head}itemscope itemtype="{SCHEMA}{kind}"'


def tel(phone: str) -> str:
    """A ``tel:`` URL of a displayed number (digits and a leading plus only)."""
    return "tel:" + "".join(ch for ch in phone if ch.isdigit() or ch == "+")


def phone_html(rng: Random, phone: str, prop: str = "telephone") -> str:
    """A displayed number carrying the property: a ``tel:`` link or a span; some spans also
    carry a machine ``content`` value that differs from what is displayed."""
    style = rng.randrange(3)
    if style == 0:
        return f'<a href="{tel(phone)}" itemprop="{prop}">{escape(phone)}</a>'
    if style == 1:
        return f'<span itemprop="{prop}">{escape(phone)}</span>'
    return f'<span itemprop="{prop}" content="{tel(phone)[4:]}">{escape(phone)}</span>'


def store_contact(
    rng: Random, store: str, street: str, phone: str, press: str, fax: str | None
) -> str:
    """A store's contact block as one Store item; the press office is a nested ContactPoint."""
    press_row = (
        f"<dt>Press office</dt><dd {scope('ContactPoint', 'contactPoint')}>"
        f'<meta itemprop="contactType" content="press">{phone_html(rng, press)}</dd>'
    )
    rows = [
        f"<dt>Customer service</dt><dd>{phone_html(rng, phone)}</dd>",
        press_row,
        f'<dt>Opening hours</dt><dd><meta itemprop="openingHours" content="Mo-Fr">'
        f"Mon–Fri {rng.randint(8, 10)}:00–{rng.randint(17, 20)}:00</dd>",
    ]
    if fax is not None:
        rows.append(f"<dt>Fax</dt><dd>{phone_html(rng, fax, 'faxNumber')}</dd>")
    rng.shuffle(rows)
    address = (
        f"<dt>Address</dt><dd {scope('PostalAddress', 'address')}>"
        f'<span itemprop="streetAddress">{escape(street)}</span></dd>'
    )
    return (
        f'<div class="store" {scope("Store")}><section class="store-contact" '
        f'id="contact-{token(rng, 5)}"><h1 itemprop="name">{escape(store)}</h1>'
        f"<p>{escape(pools.sentence(rng, 10))}</p>"
        f'<dl class="contact">{address}{"".join(rows)}</dl></section></div>'
    )


def branch_store(rng: Random, store: str, street: str, phone: str) -> str:
    """A sister store's teaser: its own Store item with its own telephone."""
    return (
        f'<section class="other-branch" {scope("Store")}><h2>Also visit '
        f'<span itemprop="name">{escape(store)}</span></h2>'
        f'<p itemprop="address">{escape(street)}</p><p>Phone: {phone_html(rng, phone)}</p>'
        "</section>"
    )


@dataclass(frozen=True)
class Product:
    """One product's microdata values (as microdata reads them) and display texts."""

    name: str
    sku: str
    brand: str
    price: str
    currency: str
    rating: str


_CURRENCIES = (("USD", "${}"), ("EUR", "{} €"), ("GBP", "£{}"), ("CHF", "CHF {}"))


def draw_product(rng: Random, name: str) -> Product:
    amount = f"{rng.randint(5, 2400)}.{rng.randint(0, 99):02d}"
    line = rng.choice(("Home", "Pro", "Labs", "Works", ""))
    return Product(
        name=name,
        sku=pools.sku(rng),
        brand=f"{rng.choice(pools.COMPANIES)} {line}".strip(),
        price=amount,
        currency=rng.choice(_CURRENCIES)[0],
        rating=f"{rng.randint(10, 50) / 10:.1f}",
    )


def _shown_price(product: Product) -> str:
    whole, cents = product.price.split(".")
    grouped = f"{int(whole):,}"
    fmt = dict(_CURRENCIES)[product.currency]
    return fmt.format(f"{grouped}.{cents}")


def offer(product: Product, prop: str = "offers") -> str:
    return (
        f'<div class="offer" {scope("Offer", prop)}><span class="price">'
        f"{escape(_shown_price(product))}</span>"
        f'<meta itemprop="price" content="{product.price}">'
        f'<meta itemprop="priceCurrency" content="{product.currency}">'
        f'<link itemprop="availability" href="{SCHEMA}InStock">In stock</div>'
    )


def review(rng: Random) -> str:
    """A review item: its author's ``name`` and its own ``ratingValue`` are nested props."""
    return (
        f'<div class="review" {scope("Review", "review")}><span {scope("Person", "author")}>'
        f'<span itemprop="name">{escape(pools.person_name(rng))}</span></span>'
        f'<div {scope("Rating", "reviewRating")}><meta itemprop="ratingValue" '
        f'content="{rng.randint(1, 5)}"></div><p itemprop="reviewBody">'
        f"{escape(pools.sentence(rng, 9))}</p></div>"
    )


def related_stub(rng: Random, other: Product) -> str:
    """A nested related Product with its own name, sku and offer (a leak trap)."""
    return (
        f'<div class="goes-with" {scope("Product", "isRelatedTo")}>Goes well with '
        f'<span itemprop="name">{escape(other.name)}</span>'
        f'<meta itemprop="sku" content="{other.sku}">{offer(other)}</div>'
    )


def product_card(rng: Random, product: Product, nested: list[str]) -> str:
    """A top-level Product item; ``nested`` items land before or after its own props."""
    own = [
        f'<span class="sku">SKU: <span itemprop="sku">{escape(product.sku)}</span></span>',
        offer(product),
        f'<div class="rating" {scope("AggregateRating", "aggregateRating")}>'
        f'<span itemprop="ratingValue">{product.rating}</span> / 5 '
        f'(<span itemprop="reviewCount">{rng.randint(2, 900)}</span>)</div>',
    ]
    parts = [*own, *nested]
    rng.shuffle(parts)
    return (
        f'<div class="product-card" {scope("Product")}>'
        f'<img itemprop="image" src="/img/p/{token(rng, 8)}.jpg" alt="">'
        f'<h3 itemprop="name">{escape(product.name)}</h3>'
        f'<div {scope("Brand", "brand")}><meta itemprop="name" content="{escape(product.brand)}">'
        f"</div>{''.join(parts)}</div>"
    )
