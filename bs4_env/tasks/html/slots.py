"""Page content for the shared requests, with the requested data's slot left open.

A limitation page and its solvable twin must differ only in how the requested data is
held, never in the layout around it: both are built by the same builder here, which lays
out the content of one shared request (a product page, a contact page, captioned tables, a
product listing) with every decoy, and leaves one marked slot where the data goes. The
solvable page fills it with the data (``Slotted.data``) or a look-alike that still holds it
statically; the limitation page puts its blocking element there. Extra blocks (an inline
bot check, a sign-in teaser, a state blob) are placed among the sections by ``main``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import articles, feeds, listing, pools
from bs4_env.tasks.model import Difficulty, JSONValue
from bs4_env.tasks.rng import token

SLOT = "\x00slot\x00"
"""Stands where the requested data goes; ``Slotted.main`` replaces it exactly once."""

# Only classes a blocked page carries too (in its old, hidden and mounted prices): a class
# that only the displayed current price has would tell a solvable page by itself.
_CURRENT_CLASSES = ("price current", "current price")
_HIDING = ('style="display:none"', "hidden", 'style="display: none;"', 'aria-hidden="true" hidden')
_OLD = (
    '<s class="price old">{}</s>',
    '<span class="price-old">{}</span>',
    '<del class="price old" aria-label="Was">{}</del>',
)


@dataclass(frozen=True)
class Slotted:
    """One page's content with an open slot, and what a solvable page would show in it."""

    query: queries.Query
    truth: JSONValue
    name: str
    """What the request names: the product, store, table caption or listing title."""
    title: str
    breadcrumbs: tuple[str, ...]
    chrome: Difficulty
    """Chrome level shared by every page asked with this template (page size tells nothing)."""
    sections: tuple[str, ...]
    data: str
    """Static markup showing the requested data (what fills the slot on a plain page)."""
    data_inner: str
    """The same data without its own wrapper (what a mount node rendered on the server holds)."""
    subject: str
    """What the slot holds, in words ("price", "phone number", "table", "listing")."""
    state: dict[str, JSONValue]
    """The requested data as an app would keep it in a JSON state blob."""
    decoy_state: dict[str, JSONValue]
    """Other data of the page (the decoy table, related products) in the same shape."""
    extra_head: str = ""
    cards: tuple[feeds.Card, ...] = field(default=())
    card_style: int = 0

    def main(self, rng: Random, slot: str, extras: Sequence[str] = ()) -> str:
        """The main region: the slot filled with ``slot``, ``extras`` among the sections."""
        parts = list(self.sections)
        for extra in extras:
            parts.insert(rng.randint(0, len(parts)), extra)
        html = "\n".join(parts)
        if html.count(SLOT) != 1:
            raise ValueError("a slotted layout must hold exactly one slot")
        return html.replace(SLOT, slot)


def _recently_viewed(rng: Random, fmt: listing.PriceFormat, name: str, amount: int) -> str:
    names = listing.other_products(rng, name, rng.randint(1, 3))
    names.insert(rng.randint(0, len(names)), name)
    items = "".join(
        f'<li class="rv-item"><a class="rv-name" href="/p/{token(rng, 8)}">{escape(item)}</a> '
        f'<span class="{rng.choice(("price", "price current"))}">'
        f"{escape(fmt(amount if item == name else listing.cents(rng)))}</span></li>"
        for item in names
    )
    return (
        '<aside class="recently-viewed"><h2>Recently viewed</h2>'
        f'<ul class="rv-list">{items}</ul></aside>'
    )


def price_box(
    rng: Random, fmt: listing.PriceFormat, current: int, slot: str, blocked: bool
) -> tuple[str, int, int]:
    """The featured price box around ``slot`` (an old price, a hidden variant price, a
    "save" badge), with the old and variant amounts: the frame a copy of a blocking element
    draws too (``blocker_copies``)."""
    old = (current * rng.randint(110, 150) // 10000 + 1) * 100 - rng.choice((1, 0, 50))
    down = current > 3100 and rng.random() < 0.5
    variant = current + (-1 if down else 1) * rng.randint(1, 30) * 100
    hidden = (
        f'<span class="{rng.choice(("price current", "price variant-price"))}" '
        f'data-variant="{rng.choice(("XL", "Bundle", "Refurb"))}" {rng.choice(_HIDING)}>'
        f"{escape(fmt(variant))}</span>"
    )
    old_html = listing.price_markup(rng, fmt(old)) if blocked else escape(fmt(old))
    parts = [rng.choice(_OLD).format(old_html), slot]
    parts.insert(rng.randint(0, 2), hidden)
    if rng.random() < 0.6:
        parts.append(f'<span class="badge save">Save {round(100 * (old - current) / old)}%</span>')
    return f'<div class="price-box">{"".join(parts)}</div>', old, variant


def featured_price(rng: Random, blocked: bool) -> Slotted:
    """A product page; the slot is the current price inside the featured price box.

    The current price is sometimes split by markup (``<sup>`` cents, a currency ``<span>``);
    a blocked page shows its old price that way as often, so such tags tell nothing.
    """
    fmt = listing.price_style(rng)
    name = pools.product_name(rng)
    current = listing.cents(rng, 8, 900)
    box, old, variant = price_box(rng, fmt, current, SLOT, blocked)
    # The sidebar's price for the same product differs from every price in the box.
    stale = current + rng.choice((-1, 1)) * rng.randint(1, 25) * 100 + rng.randint(1, 49)
    while stale in (old, variant) or stale <= 0:
        stale += 101
    sections = [
        listing.featured_article(rng, name, box),
        listing.related_section(rng, name, fmt),
        _recently_viewed(rng, fmt, name, stale),
    ]
    rng.shuffle(sections)
    inner = listing.price_markup(rng, fmt(current))
    data = f'<span class="{rng.choice(_CURRENT_CLASSES)}">{inner}</span>'
    # Related products carry a "was" price too, so a blob of them has the keys of the
    # featured product's record (a blob holding only them is no rarer a sight).
    related: list[JSONValue] = []
    for other in listing.other_products(rng, name, rng.randint(2, 3)):
        now = listing.cents(rng)
        was = now * rng.randint(110, 150) // 100
        related.append({"name": other, "price": {"current": fmt(now), "was": fmt(was)}})
    return Slotted(
        query=queries.featured_price(name),
        truth=fmt(current),
        name=name,
        title=name,
        breadcrumbs=("Home", "Shop", rng.choice(pools.NOUNS)),
        chrome=Difficulty.EASY,
        sections=tuple(sections),
        data=data,
        data_inner=inner,
        subject="price",
        state={"product": {"name": name, "price": {"current": fmt(current), "was": fmt(old)}}},
        decoy_state={"related": related},
    )


def contact_phone(rng: Random, blocked: bool) -> Slotted:
    """A store's contact page; the slot is the customer-service row's value.

    On a solvable page the store's JSON-LD sometimes carries the number too; on a blocked
    page it never does.
    """
    store, other = pools.unique(rng, articles.store_name, 2)
    street, other_street = pools.unique(rng, articles.street_address, 2)
    phone, fax, other_phone, press = pools.unique(rng, articles.phone_number, 4)
    entities = [
        articles.store_ld(store, street, phone if not blocked and rng.random() < 0.5 else None),
        articles.store_ld(other, other_street, other_phone, fax if rng.random() < 0.6 else None),
    ]
    rng.shuffle(entities)
    scripts = articles.ld_scripts(rng, entities)
    in_head = rng.randint(0, len(scripts))
    contact = articles.contact_section(rng, store, street, SLOT, press)
    sections = [contact, articles.branch_section(other, other_street), *scripts[in_head:]]
    data = rng.choice(
        (
            f'<a href="{articles.tel_href(phone)}">{escape(phone)}</a>',
            f"<span>{escape(phone)}</span>",
            escape(phone),
        )
    )
    return Slotted(
        query=queries.contact_phone(store),
        truth=phone,
        name=store,
        title=f"Contact {store}",
        breadcrumbs=("Home", "Stores", store.split(" ")[0]),
        chrome=Difficulty.MEDIUM,
        sections=tuple(sections),
        data=data,
        data_inner=data,
        subject="phone number",
        state={"store": {"name": store, "telephone": phone}},
        decoy_state={"store": {"name": other, "telephone": other_phone}},
        extra_head="\n".join(scripts[:in_head]),
    )
