"""One attribute of one element: a link's ``href``, a card's ``data-sku``, a hero ``src``,
a ``<time>``'s ``datetime``.

Skill: locating an element by its context (link text inside a given block, a card's
title, an article's hero figure, a post's publication date) and reading ``tag["attr"]`` or
``tag.get("attr")`` exactly as written.
Shortcuts resisted: the same link text appears in a support section and in related cards
with other hrefs; the head preloads the absolute form of the same URL, so resolving or
"taking the first URL that ends the same" answers wrongly; sibling cards, thumbnails,
updated/comment timestamps and look-alike attributes (``data-parent-sku``, ``srcset``)
sit next to the target.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from random import Random

from bs4_env.tasks.html import listing, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_TAIL = " Give the value exactly as written in the HTML (do not resolve relative URLs)."
_LINK_TEXTS = ("Download the datasheet", "User manual (PDF)", "Safety information", "Spec sheet")
Built = tuple[str, str, str, str]  # main html, extra head, query, truth


def _url(rng: Random, domain: str, stem: str) -> tuple[str, str]:
    """(as written, absolute) forms of a document URL; the written form is often relative."""
    path = f"/files/{token(rng, 8)}/{stem}-{rng.randint(100, 999)}.pdf"
    form = rng.randint(0, 3)
    if form == 0:
        return f"https://{domain}{path}", f"https://{domain}{path}"
    if form == 1:
        return path, f"https://{domain}{path}"
    if form == 2:
        version = f"?v={rng.randint(2, 9)}"
        return path[1:] + version, f"https://{domain}{path}{version}"
    return f"//{domain}{path}", f"https://{domain}{path}"


def _link_in_block(rng: Random) -> Built:
    domain = f"cdn-{token(rng, 4)}.example"
    name, *others = pools.unique(rng, pools.product_name, rng.randint(3, 4))
    text = rng.choice(_LINK_TEXTS)
    slug = text.split()[-1].strip("()").lower()
    target, absolute = _url(rng, domain, slug)
    extras = [t for t in _LINK_TEXTS if t != text]
    links = [(text, target)] + [(t, _url(rng, domain, "doc")[0]) for t in rng.sample(extras, 2)]
    rng.shuffle(links)
    items = "".join(f'<li><a href="{escape(h)}">{escape(t)}</a></li>' for t, h in links)
    block = (
        f'<section class="product-detail" id="p-{token(rng, 6)}"><h1>{escape(name)}</h1>'
        f"<p>{escape(pools.sentence(rng, 14))}</p>"
        f'<h2>Downloads</h2><ul class="downloads">{items}</ul></section>'
    )
    cards = "".join(
        f'<div class="card"><h3>{escape(o)}</h3><a href="{escape(_url(rng, domain, slug)[0])}">'
        f"{escape(text)}</a></div>"
        for o in others
    )
    support = (
        f'<section class="support-links"><h2>Support</h2><a href="https://{domain}/help/'
        f'{token(rng, 6)}">{escape(text)}</a></section>'
    )
    parts = [block, f'<section class="related">{cards}</section>']
    rng.shuffle(parts)
    head = f'<link rel="preload" as="fetch" href="{escape(absolute)}">'
    query = f'On the product "{name}", what is the href of its "{text}" link?{_TAIL}'
    return "\n".join([*parts, support]), head, query, target


def _sku(rng: Random) -> Built:
    names = pools.unique(rng, pools.product_name, rng.randint(4, 8))
    skus = pools.unique(rng, pools.sku, len(names) + 2)
    target = rng.randrange(len(names))
    fmt = listing.price_style(rng)
    cards = "".join(
        f'<li class="product-card" data-sku="{sku}" data-parent-sku="{pools.sku(rng)}">'
        f'<h3 class="card-title">{escape(n)}</h3>'
        f'<span class="price">{escape(fmt(listing.cents(rng)))}</span>'
        f'<button class="add" data-action="add-to-cart">Add</button></li>'
        for n, sku in zip(names, skus, strict=False)
    )
    recent = (
        '<aside class="recently-viewed"><h2>Recently viewed</h2><ul>'
        f'<li data-sku="{skus[-1]}"><a href="/p/{token(rng, 8)}">{escape(names[target])}</a></li>'
        f'<li data-sku="{skus[-2]}"><a href="/p/{token(rng, 8)}">'
        f"{escape(pools.product_name(rng))}</a></li></ul></aside>"
    )
    grid = f'<section class="catalog"><h1>Shop</h1><ul class="product-grid">{cards}</ul></section>'
    main = f"{recent}\n{grid}" if rng.random() < 0.5 else f"{grid}\n{recent}"
    query = (
        f'What is the data-sku attribute of the product card for "{names[target]}" in the '
        "product grid? Give the value exactly as written."
    )
    return main, "", query, skus[target]


def _hero(rng: Random) -> Built:
    domain = f"media-{token(rng, 4)}.example"
    title = f"{pools.sentence(rng, rng.randint(3, 5))[:-1]} in {rng.choice(pools.CITIES)}"
    path = f"/media/{pools.date_iso(rng)[:7]}/{token(rng, 10)}.jpg"
    src = rng.choice((path, path[1:], f"https://{domain}{path}", f"{path}?w=1600"))
    thumbs = "".join(
        f'<a href="/posts/{token(rng, 6)}"><img src="/media/thumbs/{token(rng, 10)}.jpg" '
        f'alt="{escape(pools.sentence(rng, 3))}"></a>'
        for _ in range(rng.randint(2, 4))
    )
    main = (
        f'<article class="post"><header><h1>{escape(title)}</h1><p class="byline">'
        f'<img class="avatar" src="/media/avatars/{token(rng, 8)}.png" alt="">'
        f"{escape(pools.person_name(rng))}</p></header>"
        f'<figure class="hero"><img class="hero-image" src="{escape(src)}" '
        f'srcset="{escape(path)}?w=800 800w, {escape(path)}?w=1600 1600w" '
        f'alt="{escape(title)}"><figcaption>{escape(pools.sentence(rng, 6))}</figcaption>'
        f"</figure><p>{escape(pools.sentence(rng, 20))}</p></article>"
        f'<section class="more-posts"><h2>More stories</h2>{thumbs}</section>'
    )
    head = f'<meta property="og:image" content="https://{domain}{path}">'
    query = f'What is the src attribute of the hero image of the article "{title}"?{_TAIL}'
    return main, head, query, src


def _stamp(rng: Random) -> tuple[str, str]:
    """(datetime attribute, displayed date) of one timestamp."""
    year, month, day = rng.randint(2019, 2026), rng.randint(1, 12), rng.randint(1, 28)
    shown = f"{pools.MONTHS[month - 1]} {day}, {year}"
    stamp = f"{year}-{month:02d}-{day:02d}"
    if rng.random() < 0.6:
        stamp += f"T{rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}:00"
        stamp += rng.choice(("Z", "+01:00", "+02:00", "-05:00", ""))
    return stamp, shown


def _published(rng: Random) -> Built:
    title = f"{rng.choice(pools.ADJECTIVES)} {pools.sentence(rng, rng.randint(3, 6))[:-1].lower()}"
    (stamp, shown), (upd, upd_shown) = sorted((_stamp(rng), _stamp(rng)))
    times = [
        f'<span class="published">Published <time datetime="{stamp}">{shown}</time></span>',
        f'<span class="updated">Updated <time datetime="{upd}">{upd_shown}</time></span>',
    ]
    rng.shuffle(times)
    comments = "".join(
        f'<li class="comment"><b>{escape(pools.person_name(rng))}</b> '
        f'<time datetime="{s}">{d}</time><p>{escape(pools.sentence(rng))}</p></li>'
        for s, d in (_stamp(rng) for _ in range(rng.randint(1, 3)))
    )
    recent = "".join(
        f'<li><a href="/blog/{token(rng, 6)}">{escape(pools.sentence(rng, 4))}</a> '
        f'<time datetime="{s}">{d}</time></li>'
        for s, d in (_stamp(rng) for _ in range(rng.randint(2, 3)))
    )
    main = (
        f'<section class="recent-posts"><h2>Recent posts</h2><ul>{recent}</ul></section>'
        f'<article class="post"><h1>{escape(title)}</h1><p class="meta">{" · ".join(times)}</p>'
        f"<p>{escape(pools.sentence(rng, 24))}</p>"
        f'<section class="comments"><h2>Comments</h2><ul>{comments}</ul></section></article>'
    )
    query = (
        f"What is the datetime attribute of the <time> element giving the publication date of "
        f'the post "{title}"? Give the value exactly as written.'
    )
    return main, "", query, stamp


_KINDS: tuple[Callable[[Random], Built], ...] = (_link_in_block, _sku, _hero, _published)


def generate(rng: Random) -> Generated:
    main, head, query, truth = rng.choice(_KINDS)(rng)
    html = wrap_page(
        rng,
        title=pools.product_name(rng),
        main_html=main,
        difficulty=ARCHETYPE.difficulty,
        extra_head=head,
    )
    return Generated(html=html, query=query, query_template="attribute_value", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="attribute_value",
    category=Category.CORE,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=6,
    description="One attribute (href, data-sku, src, datetime) of one element found by context.",
    answer_schema="a string, the attribute value exactly as written in the HTML",
    generate=generate,
)
