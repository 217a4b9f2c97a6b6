"""Pools and helpers for the aggregation archetypes: counting, summing, grouping, deduping.

Aggregation pages repeat one item in several places (a featured strip and the grid, two
tables), write the repeats differently (letter case, spacing) and put look-alike rows
beside the ones that count, so an answer is only right when the stated rule is applied.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import token

# A status that counts, and one that contains its words but does not (a substring trap).
STATUS_LOOKALIKES: dict[str, str] = {
    "Shipped": "Partially shipped",
    "Delivered": "Not delivered",
    "Pending": "Pending review",
    "Returned": "Returned to sender",
    "Paid": "Unpaid",
    "Refunded": "Partially refunded",
}
OTHER_STATUSES = ("Cancelled", "On hold", "Processing", "Awaiting payment")

EMAIL_DOMAINS = (
    "mail.example",
    "inbox.example",
    "post.example",
    "corp.example",
    "uni.example",
    "studio.example",
)
EVENT_KINDS = ("Workshop", "Webinar", "Meetup", "Masterclass", "Bootcamp", "Hackathon")
EVENT_TOPICS = (
    "Data cleaning",
    "Web scraping",
    "Design systems",
    "Cloud costs",
    "Accessibility",
    "Observability",
    "Product analytics",
    "API security",
    "Type hints",
    "Edge caching",
)
_SPACES = (" ", "  ", "\n  ", "\t")
_PADS = ("", " ", "  ", "\n")


def respell(rng: Random, text: str) -> str:
    """The same words written differently: other letter case and other whitespace.

    The result always differs from ``text`` but reads the same after ``casefold()`` and
    whitespace collapsing.
    """
    words = text.split()
    case = rng.randrange(3)
    if case == 0:
        words = [w.upper() for w in words]
    elif case == 1:
        words = [w.lower() for w in words]
    gaps = [rng.choice(_SPACES) for _ in words[1:]] + [""]
    joined = "".join(w + gap for w, gap in zip(words, gaps, strict=True))
    padded = rng.choice(_PADS) + joined + rng.choice(_PADS)
    if padded == text:
        return f" {text.upper()} "
    return padded


def money(cents: int, symbol: str) -> str:
    """A price with thousands separators, e.g. ``"$1,249.00"``."""
    return f"{symbol}{cents // 100:,}.{cents % 100:02d}"


def distinct_ints(rng: Random, n: int, low: int, high: int) -> list[int]:
    """``n`` distinct integers from ``low..high`` in random order."""
    return rng.sample(range(low, high + 1), n)


def email(rng: Random, name: str) -> str:
    """A lower-case address built from a person's name."""
    local = ".".join(part.lower() for part in name.split())
    return f"{local}{rng.randint(2, 99)}@{rng.choice(EMAIL_DOMAINS)}"


def recase_email(rng: Random, address: str) -> str:
    """The same address in other letter case (never identical to ``address``)."""
    local, _, domain = address.partition("@")
    style = rng.randrange(3)
    if style == 0:
        local = local.title()
    elif style == 1:
        domain = domain.upper()
    else:
        local = local.upper()
    return f"{local}@{domain}"


def event_title(rng: Random) -> str:
    return f"{rng.choice(EVENT_TOPICS)} {rng.choice(EVENT_KINDS).lower()}"


def product_card(
    rng: Random, name: str, sku: str, href: str, price: str, extra_class: str = ""
) -> str:
    """A grid card carrying its SKU in ``data-sku``; the name is written as given."""
    cls = "product-card" + (f" {extra_class}" if extra_class else "")
    badge = '<span class="badge">Sponsored</span>' if "sponsored" in extra_class else ""
    return (
        f'<div class="{cls}" data-sku="{sku}">{badge}<a class="thumb" href="{href}">'
        f'<img src="/media/{token(rng, 8)}.jpg" alt=""></a>'
        f'<h3 class="product-name"><a href="{href}">{escape(name)}</a></h3>'
        f'<span class="price">{escape(price)}</span></div>'
    )


def filler_paragraph(rng: Random) -> str:
    return f'<p class="note">{escape(pools.sentence(rng, rng.randint(8, 16)))}</p>'
