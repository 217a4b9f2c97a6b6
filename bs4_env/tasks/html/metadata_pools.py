"""Head metadata for the ``metadata`` archetypes: page URLs, descriptions and meta/link tags.

The chrome never emits OpenGraph, Twitter-card, canonical or hreflang tags, so these
archetypes place their own (and their decoys) through ``extra_head``. Every value carries
seed-random tokens or pool combinations, so no answer is common across seeds.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import token

_SECTIONS = ("products", "shop", "p", "item", "catalog", "store", "buy", "deals")
_TRACKING = ("utm_source=newsletter", "utm_medium=email", "ref=home", "gclid=", "fbclid=")
_LEADS = (
    "Shop the {p}: {s}",
    "{p} — {s}",
    "Discover the {p}. {s}",
    "Buy the {p} online. {s}",
    "The new {p} is here: {s}",
    "{s} Meet the {p}.",
)


def domain(rng: Random) -> str:
    """A site's host name (sometimes with ``www.``)."""
    company = rng.choice(pools.COMPANIES)
    slug = "".join(ch for ch in company.lower() if ch.isalnum())
    return f"{rng.choice(('www.', '', 'shop.'))}{slug}-{token(rng, 4)}.example"


def slug(text: str) -> str:
    """A URL slug of ``text`` (lower case, hyphens)."""
    out = "".join(ch if ch.isalnum() else "-" for ch in text.lower())
    return "-".join(part for part in out.split("-") if part)


def page_path(rng: Random, name: str) -> str:
    """A product page path such as ``/shop/aero-kettle-pro-7k2m``."""
    return f"/{rng.choice(_SECTIONS)}/{slug(name)}-{token(rng, 4)}"


def tracking_query(rng: Random) -> str:
    """A query string of tracking parameters, as links from campaigns carry."""
    chosen = rng.sample(_TRACKING, rng.randint(1, 3))
    return "?" + "&".join(p + (token(rng, 8) if p.endswith("=") else "") for p in chosen)


def description(rng: Random, product: str) -> str:
    """A one- or two-sentence marketing description of ``product``."""
    text = rng.choice(_LEADS).format(p=product, s=pools.sentence(rng, rng.randint(7, 12)))
    if rng.random() < 0.3:
        text += f" Free delivery over {rng.choice(('$', '€', '£'))}{rng.randint(2, 15) * 10}."
    return text


def meta(attr: str, key: str, value: str, *, upper: bool = False) -> str:
    """One ``<meta>`` tag; ``upper`` writes it the way old templates do (upper-case markup)."""
    if upper:
        return f'<META {attr.upper()}="{escape(key)}" CONTENT="{escape(value)}">'
    return f'<meta {attr}="{escape(key)}" content="{escape(value)}">'


def link(rel: str, href: str, **attrs: str) -> str:
    """One ``<link>`` tag with ``rel``, ``href`` and extra attributes (``_`` becomes ``-``)."""
    extra = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return f'<link rel="{rel}"{extra} href="{escape(href)}">'


def image_url(rng: Random, host: str, name: str) -> str:
    """An image URL on a CDN with a size, e.g. for social cards."""
    size = rng.choice(("1200x630", "1200x628", "800x418", "1080x1080", "600x315"))
    return f"https://{host}/img/{slug(name)}-{token(rng, 6)}-{size}.{rng.choice(('jpg', 'png'))}"


def cdn_host(rng: Random) -> str:
    return f"{rng.choice(('cdn', 'img', 'static', 'media'))}.{token(rng, 5)}.example"


def shuffled_head(rng: Random, tags: list[str]) -> str:
    """Head tags in random order, one per line (the order real templates emit varies)."""
    rng.shuffle(tags)
    return "\n".join(tags)
