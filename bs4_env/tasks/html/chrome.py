"""Page chrome: head, header/nav, breadcrumbs, sidebar, footer and noise around the content.

Real pages bury the content among navigation, ads, trackers, cookie banners and hidden
modals. The amount of chrome grows with difficulty so HTML size grows with it too.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import bulk, pools
from bs4_env.tasks.model import DIFFICULTY_RANK, Difficulty
from bs4_env.tasks.rng import token

_NAV_LABELS = (
    "Home",
    "Shop",
    "Deals",
    "New arrivals",
    "Blog",
    "About",
    "Careers",
    "Help",
    "Contact",
    "Stores",
    "Gift cards",
    "Account",
    "Press",
    "Community",
    "Pricing",
    "Docs",
)
_NOISE_PER_RANK = {0: (0, 0), 1: (1, 3), 2: (3, 6), 3: (6, 11)}


def _nav(rng: Random, domain: str) -> str:
    labels = rng.sample(_NAV_LABELS, rng.randint(4, 8))
    items = "".join(
        f'<li class="nav-item"><a class="nav-link" href="/{label.lower().replace(" ", "-")}">'
        f"{escape(label)}</a></li>"
        for label in labels
    )
    return (
        f'<header class="site-header"><a class="logo" href="https://{domain}/">'
        f'<img src="/static/logo-{token(rng)}.svg" alt="{escape(domain)}"></a>'
        f'<nav class="main-nav" aria-label="Main"><ul class="nav">{items}</ul></nav>'
        '<form class="search" action="/search" role="search">'
        '<input type="search" name="q" placeholder="Search"><button>Go</button></form></header>'
    )


def _ad(rng: Random) -> str:
    slot = token(rng)
    return (
        f'<div class="ad-slot" id="ad-{slot}" data-ad-unit="/{rng.randint(1000, 9999)}/sidebar">'
        f'<span class="ad-label">Advertisement</span>'
        f'<a href="https://ads.example/click?id={slot}" rel="sponsored">'
        f'<img src="https://ads.example/creative/{slot}.jpg" alt="Sponsored"></a></div>'
    )


def _related(rng: Random) -> str:
    items = "".join(
        f'<li><a href="/p/{token(rng, 8)}">{escape(pools.product_name(rng))}</a> '
        f'<span class="price">{pools.price(rng)}</span></li>'
        for _ in range(rng.randint(2, 5))
    )
    return f'<section class="related"><h3>You may also like</h3><ul>{items}</ul></section>'


def _newsletter(rng: Random) -> str:
    return (
        f'<section class="newsletter" id="nl-{token(rng)}"><h3>Stay in the loop</h3>'
        f"<p>{escape(pools.sentence(rng))}</p>"
        '<form action="/subscribe" method="post"><input type="email" name="email" '
        'placeholder="you@example.com"><button type="submit">Subscribe</button></form></section>'
    )


def _hidden_modal(rng: Random) -> str:
    return (
        f'<div class="modal" id="modal-{token(rng)}" style="display:none" aria-hidden="true">'
        f"<h2>{escape(pools.sentence(rng, 4))}</h2><p>{escape(pools.sentence(rng, 12))}</p></div>"
    )


def _tracking(rng: Random) -> str:
    pixel = token(rng, 10)
    return (
        f'<img src="https://t.example/pixel.gif?id={pixel}" width="1" height="1" alt="" '
        'style="position:absolute;left:-9999px">'
        f"<script>window.dataLayer=window.dataLayer||[];dataLayer.push({{'event':'view',"
        f"'id':'{pixel}'}});</script>"
    )


def _comment(rng: Random) -> str:
    return f"<!-- build {token(rng, 8)} {pools.date_iso(rng)} cache:{rng.randint(1, 999)} -->"


_NOISE = (_ad, _related, _newsletter, _hidden_modal, _tracking, _comment)


def noise_blocks(rng: Random, difficulty: Difficulty) -> list[str]:
    """Random noise fragments; more of them at higher difficulty."""
    low, high = _NOISE_PER_RANK[DIFFICULTY_RANK[difficulty]]
    return [rng.choice(_NOISE)(rng) for _ in range(rng.randint(low, high))]


def _footer(rng: Random, site_name: str) -> str:
    columns = []
    for heading in rng.sample(("Company", "Support", "Legal", "Follow us", "Resources"), 3):
        links = "".join(
            f'<li><a href="/{token(rng, 5)}">{escape(label)}</a></li>'
            for label in rng.sample(_NAV_LABELS, 3)
        )
        columns.append(f'<div class="footer-col"><h4>{heading}</h4><ul>{links}</ul></div>')
    return (
        f'<footer class="site-footer">{"".join(columns)}'
        f'<p class="copyright">&copy; {rng.randint(2015, 2026)} {escape(site_name)}. '
        "All rights reserved.</p></footer>"
    )


def site_name(rng: Random) -> tuple[str, str]:
    """A (display name, domain) pair for the page's site."""
    name = rng.choice(pools.COMPANIES)
    slug = "".join(ch for ch in name.lower() if ch.isalnum())
    return name, f"{slug}-{token(rng, 4)}.example"


def wrap_page(
    rng: Random,
    *,
    title: str,
    main_html: str,
    difficulty: Difficulty,
    lang: str = "en",
    direction: str | None = None,
    extra_head: str = "",
    breadcrumbs: tuple[str, ...] = (),
) -> str:
    """A full HTML document with chrome and noise around ``main_html``."""
    name, domain = site_name(rng)
    rank = DIFFICULTY_RANK[difficulty]
    noise = noise_blocks(rng, difficulty)
    split = rng.randint(0, len(noise))
    before, after = "".join(noise[:split]), "".join(noise[split:])
    crumbs = ""
    if breadcrumbs:
        crumb_items = "".join(
            f'<li><a href="/{token(rng, 5)}">{escape(c)}</a></li>' for c in breadcrumbs
        )
        crumbs = f'<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>{crumb_items}</ol></nav>'
    styles = "".join(
        f'<link rel="stylesheet" href="/static/css/{token(rng, 8)}.css">' for _ in range(rank + 1)
    )
    cookie = (
        '<div class="cookie-banner" role="dialog"><p>We use cookies to improve your experience.</p>'
        '<button class="accept">Accept</button></div>'
        if rank >= 1
        else ""
    )
    head_bulk = bulk.inline_css(rng, rank) + bulk.config_script(rng, rank)
    menu = bulk.mega_menu(rng, rank)
    dir_attr = f' dir="{direction}"' if direction else ""
    sidebar = f'<aside class="sidebar">{after}</aside>' if after else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"{dir_attr}>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)} | {escape(name)}</title>\n{styles}{head_bulk}\n{extra_head}\n"
        f'</head>\n<body class="page-{token(rng, 4)}">\n{_nav(rng, domain)}{menu}\n{crumbs}\n'
        f'<div class="layout">{before}\n<main id="content" class="content">\n{main_html}\n</main>\n'
        f"{sidebar}</div>\n{_footer(rng, name)}\n{cookie}\n</body>\n</html>\n"
    )
