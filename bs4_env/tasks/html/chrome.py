"""Page chrome: a site template, noise and widgets around the content, in one language.

Real pages bury the content among navigation, ads, trackers, cookie banners, hidden
modals and widgets. The amount of chrome grows with difficulty so HTML size grows with it
too; the site template (``sites``) varies how the frame is built; ``widgets`` puts the
signatures of unextractable content (canvas, fetch scripts, PDFs, challenges, ...) on every
page in harmless roles, so their presence alone never tells a limitation page; most of them
are copies of the blocking elements (``blocker_copies``), framed and placed as blockers are.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import bulk, lookalikes, pools, sites, widgets
from bs4_env.tasks.html.blocker_copies import Copy
from bs4_env.tasks.html.chrome_text import ChromeText, chrome_text
from bs4_env.tasks.model import DIFFICULTY_RANK, Difficulty, LimitReason
from bs4_env.tasks.rng import between, sample, shuffle, token

_NOISE_PER_RANK = {0: (0, 0), 1: (1, 3), 2: (3, 6), 3: (6, 11)}
MAIN_SHARE = 0.5
"""Chance that a harmless widget sits in the main region (framed like a data block)."""


def _ad(rng: Random, text: ChromeText) -> str:
    slot = token(rng)
    return (
        f'<div class="ad-slot" id="ad-{slot}" data-ad-unit="/{rng.randint(1000, 9999)}/sidebar">'
        f'<span class="ad-label">{escape(text.advert)}</span>'
        f'<a href="https://ads.example/click?id={slot}" rel="sponsored">'
        f'<img src="https://ads.example/creative/{slot}.jpg" alt="Sponsored"></a></div>'
    )


def _related(rng: Random, text: ChromeText) -> str:
    items = "".join(
        f'<li><a href="/p/{token(rng, 8)}">{escape(pools.product_name(rng))}</a> '
        f'<span class="price">{pools.price(rng)}</span></li>'
        for _ in range(rng.randint(2, 5))
    )
    return f'<section class="related"><h3>{escape(text.related)}</h3><ul>{items}</ul></section>'


def _newsletter(rng: Random, text: ChromeText) -> str:
    return (
        f'<section class="newsletter" id="nl-{token(rng)}"><h3>{escape(text.newsletter)}</h3>'
        f"<p>{escape(pools.sentence(rng))}</p>"
        '<form action="/subscribe" method="post"><input type="email" name="email" '
        f'placeholder="you@example.com"><button type="submit">{escape(text.subscribe)}</button>'
        "</form></section>"
    )


def _hidden_modal(rng: Random, text: ChromeText) -> str:
    return (
        f'<div class="modal" id="modal-{token(rng)}" style="display:none" aria-hidden="true">'
        f"<h2>{escape(pools.sentence(rng, 4))}</h2><p>{escape(pools.sentence(rng, 12))}</p></div>"
    )


def _tracking(rng: Random, text: ChromeText) -> str:
    pixel = token(rng, 10)
    return (
        f'<img src="https://t.example/pixel.gif?id={pixel}" width="1" height="1" alt="" '
        'style="position:absolute;left:-9999px">'
        f"<script>window.dataLayer=window.dataLayer||[];dataLayer.push({{'event':'view',"
        f"'id':'{pixel}'}});</script>"
    )


def _comment(rng: Random, text: ChromeText) -> str:
    return f"<!-- build {token(rng, 8)} {pools.date_iso(rng)} cache:{rng.randint(1, 999)} -->"


_NOISE = (_ad, _related, _newsletter, _hidden_modal, _tracking, _comment)


def noise_blocks(rng: Random, difficulty: Difficulty, text: ChromeText) -> list[str]:
    """Random noise fragments; more of them at higher difficulty."""
    low, high = _NOISE_PER_RANK[DIFFICULTY_RANK[difficulty]]
    return [rng.choice(_NOISE)(rng, text) for _ in range(between(rng, low, high))]


def site_name(rng: Random) -> tuple[str, str]:
    """A (display name, domain) pair for the page's site."""
    name = rng.choice(pools.COMPANIES)
    slug = "".join(ch for ch in name.lower() if ch.isalnum())
    return name, f"{slug}-{token(rng, 4)}.example"


def _analytics(rng: Random, rank: int) -> str:
    """Third-party scripts in the head: every real page past the simplest has some."""
    if rank == 0:
        return ""
    return "".join(
        f'<script async src="https://{host}.example/{token(rng, 6)}.js"></script>'
        for host in sample(rng, ("analytics", "tags", "cdn", "consent", "metrics"), rank)
    )


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
    limitation: LimitReason | None = None,
    footer_note: str = "",
) -> str:
    """A full HTML document: a site template, noise and widgets around ``main_html``.

    ``limitation`` names the kind of blocking element ``main_html`` holds on a limitation
    page: the chrome then carries one fewer harmless widget of that kind, so the kinds and
    counts of such elements are distributed alike on limitation and solvable pages.
    ``footer_note`` is a line the site template prints at the foot of the page.
    """
    text = chrome_text(lang)
    name, domain = site_name(rng)
    rank = DIFFICULTY_RANK[difficulty]
    blocks = noise_blocks(rng, difficulty, text)
    # Harmless widgets sit in the main region, framed like data blocks, as often as a
    # blocker does there: "the widget in <main>" must not point at the blocker.
    # Copies of blocking elements stand in the main region as blockers do, in the same
    # frames, with the parts a blocker puts in the head there as often.
    in_main: list[str] = []
    for widget in widgets.page_widgets(rng, difficulty, limitation, main_html):
        if isinstance(widget, Copy):
            in_main.append(widget.block)
            if widget.in_head:
                extra_head += widget.loose
            elif widget.loose:
                in_main.append(widget.loose)
        elif rng.random() < MAIN_SHARE:
            in_main.append(lookalikes.framed(rng, widget))
        else:
            blocks.append(widget)
    if in_main:
        parts_in_main = [main_html, *in_main]
        shuffle(rng, parts_in_main)
        main_html = "\n".join(parts_in_main)
    shuffle(rng, blocks)
    split = between(rng, 0, len(blocks))
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
        f'<div class="cookie-banner" role="dialog"><p>{escape(text.cookie)}</p>'
        f'<button class="accept">{escape(text.accept)}</button></div>'
        if rank >= 1
        else ""
    )
    head_bulk = bulk.inline_css(rng, rank) + bulk.config_script(rng, rank, lang)
    parts = sites.PageParts(
        name=name,
        domain=domain,
        text=text,
        main=main_html,
        crumbs=crumbs,
        before="".join(blocks[:split]),
        aside="".join(blocks[split:]),
        menu=bulk.mega_menu(rng, rank),
        cookie=cookie,
        footer_note=footer_note,
    )
    body = sites.choose_site(rng)(rng, parts)
    dir_attr = f' dir="{direction}"' if direction else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"{dir_attr}>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)} | {escape(name)}</title>\n{styles}{_analytics(rng, rank)}"
        f'{head_bulk}\n{extra_head}\n</head>\n<body class="page-{token(rng, 4)}">\n'
        f"{bulk.icon_sprite(rng, rank)}{body}\n</body>\n</html>\n"
    )
