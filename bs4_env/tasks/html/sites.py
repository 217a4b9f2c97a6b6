"""Site templates: the same content framed by differently built sites.

Real pages come from many stacks: a storefront theme, a WordPress-style magazine, a
utility-class app shell, a docs portal whose main region is only ``role="main"``, and an
old table-layout site with upper-case tags, unquoted attributes and unclosed list items.
Extraction code that leans on one boilerplate (``soup.main``, ``#content``, "the first
nav") breaks on the others. Chrome malformation stays inside chrome elements whose end tags
close it, so it never re-parents the content.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from itertools import accumulate
from random import Random

from bs4_env.tasks.html.chrome_text import ChromeText
from bs4_env.tasks.rng import sample, token, weighted


@dataclass(frozen=True)
class PageParts:
    """Everything a template frames; all fields are finished HTML except the names."""

    name: str
    domain: str
    text: ChromeText
    main: str
    crumbs: str
    before: str
    aside: str
    menu: str
    cookie: str
    # A line the site prints at the foot of every page (a CDN's "Ray ID" line), or "".
    footer_note: str = ""


Site = Callable[[Random, PageParts], str]


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in label.lower()).strip("-") or "x"


def _labels(rng: Random, text: ChromeText, low: int = 4, high: int = 8) -> list[str]:
    return sample(rng, text.nav, min(len(text.nav), rng.randint(low, high)))


def _footer_columns(rng: Random, text: ChromeText, col: str, links: Callable[[str], str]) -> str:
    columns = []
    for heading in sample(rng, text.footer_heads, 3):
        items = "".join(
            f'<li><a href="/{token(rng, 5)}">{escape(label)}</a></li>'
            for label in sample(rng, text.nav, 3)
        )
        columns.append(f'<div class="{col}"><h4>{escape(heading)}</h4>{links(items)}</div>')
    return "".join(columns)


def _copyright(rng: Random, p: PageParts) -> str:
    return f"&copy; {rng.randint(2015, 2026)} {escape(p.name)}. {escape(p.text.rights)}"


def storefront(rng: Random, p: PageParts) -> str:
    items = "".join(
        f'<li class="nav-item"><a class="nav-link" href="/{_slug(label)}">{escape(label)}</a></li>'
        for label in _labels(rng, p.text)
    )
    header = (
        f'<header class="site-header"><a class="logo" href="https://{p.domain}/">'
        f'<img src="/static/logo-{token(rng)}.svg" alt="{escape(p.domain)}"></a>'
        f'<nav class="main-nav" aria-label="Main"><ul class="nav">{items}</ul></nav>'
        f'<form class="search" action="/search" role="search"><input type="search" name="q" '
        f'placeholder="{escape(p.text.search)}"><button>{escape(p.text.go)}</button></form>'
        "</header>"
    )
    aside = f'<aside class="sidebar">{p.aside}</aside>' if p.aside else ""
    footer = _footer_columns(rng, p.text, "footer-col", lambda x: f"<ul>{x}</ul>")
    return (
        f'{header}{p.menu}\n{p.crumbs}\n<div class="layout">{p.before}\n'
        f'<main id="content" class="content">\n{p.main}\n</main>\n{aside}</div>\n'
        f'<footer class="site-footer">{footer}<p class="copyright">{_copyright(rng, p)}</p>'
        f"{p.footer_note}</footer>\n{p.cookie}"
    )


def magazine(rng: Random, p: PageParts) -> str:
    items = "".join(
        f'<li id="menu-item-{rng.randint(10, 999)}" class="menu-item">'
        f'<a href="/{_slug(label)}/">{escape(label)}</a></li>'
        for label in _labels(rng, p.text)
    )
    widgets = f'<aside id="secondary" class="widget-area">{p.aside}</aside>' if p.aside else ""
    footer = _footer_columns(rng, p.text, "widget", lambda x: f'<ul class="menu">{x}</ul>')
    return (
        f'<div id="page" class="site"><a class="skip-link screen-reader-text" '
        f'href="#primary">Skip</a><header id="masthead" class="site-header">'
        f'<div class="site-branding"><p class="site-title"><a href="https://{p.domain}/" '
        f'rel="home">{escape(p.name)}</a></p></div><nav id="site-navigation" '
        f'class="main-navigation"><ul id="primary-menu" class="menu">{items}</ul></nav>'
        f"</header>{p.menu}\n{p.crumbs}\n"
        f'<div id="content-wrap" class="site-content">{p.before}'
        f'<div id="primary" class="content-area"><main id="main" class="site-main">\n{p.main}\n'
        f"</main></div>\n{widgets}</div>\n"
        f'<footer id="colophon" class="site-footer"><div class="footer-widgets">{footer}</div>'
        f'<div class="site-info">{_copyright(rng, p)}</div>{p.footer_note}</footer></div>\n'
        f"{p.cookie}"
    )


def app_shell(rng: Random, p: PageParts) -> str:
    items = "".join(
        f'<a class="px-3 py-2 text-sm font-medium hover:underline" href="/{_slug(label)}" '
        f'data-testid="nav-{_slug(label)}">{escape(label)}</a>'
        for label in _labels(rng, p.text)
    )
    aside = (
        f'<div class="hidden lg:block lg:col-span-3 space-y-6">{p.aside}</div>' if p.aside else ""
    )
    footer = _footer_columns(rng, p.text, "space-y-2", lambda x: f'<ul class="text-sm">{x}</ul>')
    return (
        f'<div id="root" data-reactroot=""><div class="min-h-screen flex flex-col">'
        f'<header class="sticky top-0 z-40 border-b bg-white/80 backdrop-blur">'
        f'<div class="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4">'
        f'<a href="/" class="font-semibold">{escape(p.name)}</a>'
        f'<div class="flex flex-1 items-center gap-1" role="navigation">{items}</div>'
        f"</div></header>{p.menu}\n{p.crumbs}\n"
        f'<div class="mx-auto grid w-full max-w-7xl flex-1 grid-cols-12 gap-8 px-4 py-8">'
        f"{p.before}"
        f'<main class="col-span-12 lg:col-span-9" id="main-content">\n{p.main}\n</main>\n'
        f"{aside}</div>\n"
        f'<footer class="border-t bg-gray-50"><div class="mx-auto grid max-w-7xl grid-cols-3 '
        f'gap-8 px-4 py-10">{footer}</div><p class="text-xs text-gray-500">{_copyright(rng, p)}'
        f"</p>{p.footer_note}</footer></div></div>\n{p.cookie}"
    )


def portal(rng: Random, p: PageParts) -> str:
    toc = "".join(
        f'<li><a href="#{_slug(label)}-{token(rng, 3)}">{escape(label)}</a></li>'
        for label in _labels(rng, p.text, 3, 6)
    )
    aside = f'<div class="col-3 rail">{p.aside}</div>' if p.aside else ""
    return (
        f'<div class="wrapper"><div class="topbar"><span class="brand">{escape(p.name)}</span>'
        f'<a href="/login">{escape(p.text.nav[-1])}</a></div>{p.menu}\n{p.crumbs}\n'
        f'<div class="row"><div class="col-2 toc"><ul>{toc}</ul></div>{p.before}'
        f'<div class="col-7 body" role="main">\n{p.main}\n</div>\n{aside}</div>'
        f'<div class="footer">{_copyright(rng, p)}{p.footer_note}</div></div>\n{p.cookie}'
    )


def legacy(rng: Random, p: PageParts) -> str:
    # Unclosed <LI> and <P>, upper-case tags, unquoted attributes and an entity without its
    # semicolon, as old CMS output has them; each is closed by its enclosing end tag.
    items = "".join(
        f"<LI><A HREF=/{_slug(label)}.html>{escape(label)}</A>" for label in _labels(rng, p.text)
    )
    side = f"<P>{p.aside}" if p.aside else ""
    return (
        f'<TABLE WIDTH="100%" BORDER=0 CELLPADDING=0 CELLSPACING=0 class=frame>'
        f'<TR><TD COLSPAN=2 class=top><FONT SIZE=5 FACE="Verdana">{escape(p.name)}</FONT>'
        f"{p.menu}</TD></TR>"
        f"<TR><TD class=leftnav VALIGN=top WIDTH=180><UL>{items}</UL>{p.before}{side}</TD>"
        f'<TD class=body VALIGN=top>{p.crumbs}\n<div class="main-body">\n{p.main}\n</div></TD>'
        f"</TR><TR><TD COLSPAN=2 class=bottom><FONT SIZE=1>&copy {rng.randint(2003, 2016)} "
        f"{escape(p.name)}. {escape(p.text.rights)}</FONT>{p.footer_note}</TD></TR></TABLE>\n"
        f"{p.cookie}"
    )


SITES: tuple[tuple[Site, int], ...] = (
    (storefront, 3),
    (magazine, 2),
    (app_shell, 2),
    (portal, 1),
    (legacy, 1),
)
"""Each template with its relative weight."""


# ``rng.choices(..., weights=...)`` sums the weights on every call: summed once here they
# are the same cumulative weights, so ``weighted`` draws the same template.
_SITE_TEMPLATES = tuple(site for site, _ in SITES)
_SITE_SHARES = tuple(accumulate(weight for _, weight in SITES))


def choose_site(rng: Random) -> Site:
    return weighted(rng, _SITE_TEMPLATES, _SITE_SHARES)
