"""The featured product's current price is only drawn on a ``<canvas>`` at run time.

Skill: seeing that the featured block's price slot is a canvas filled by a script from a
price endpoint (nothing static to read), and abstaining with evidence (the canvas id or the
endpoint) instead of reporting some other visible price.
Shortcuts resisted: the request is word-for-word the solvable ``featured_price`` request;
the page carries many real static prices in the same currency format -- a crossed-out old
price and a hidden variant price in the featured block, related-product cards, and a
"recently viewed" list repeating the product's own name with a price -- so "first price",
"price next to the name" or "any ``.price.current``" all answer wrongly. No current price
exists anywhere in the HTML (not in a script, attribute, comment or alt text).
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import listing, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import (
    ArchetypeSpec,
    Category,
    Difficulty,
    Generated,
    LimitationInfo,
    LimitReason,
)
from bs4_env.tasks.rng import token

_OLD = (
    '<s class="price old">{}</s>',
    '<span class="price-old">{}</span>',
    '<del class="price old" aria-label="Was">{}</del>',
)
_HIDING = ('style="display:none"', "hidden", 'aria-hidden="true" hidden')


def _drawing_script(canvas_id: str, endpoint: str, rng: Random) -> str:
    font = rng.choice(("600 28px Inter, sans-serif", "bold 26px system-ui", "700 30px Roboto"))
    return (
        "<script>(function(){"
        f"var c=document.getElementById('{canvas_id}');"
        f"fetch('{endpoint}',{{credentials:'same-origin'}})"
        ".then(function(r){return r.json();})"
        ".then(function(d){var ctx=c.getContext('2d');"
        f"ctx.font='{font}';ctx.fillStyle='#111';ctx.fillText(d.display,0,30);}});"
        "})();</script>"
    )


def _price_box(rng: Random, fmt: listing.PriceFormat, canvas_id: str, script: str) -> str:
    fallback = rng.choice(("", "Your browser does not support canvas.", "Loading price…"))
    canvas = (
        f'<canvas id="{canvas_id}" class="price-canvas" width="{rng.choice((160, 180, 200))}" '
        f'height="40" aria-label="Current price">{fallback}</canvas>'
    )
    # Old and variant prices sit near a plausible current price that is never written out.
    anchor = listing.cents(rng, 8, 900)
    old = (anchor * rng.randint(110, 150) // 10000 + 1) * 100 - rng.choice((1, 0, 50))
    down = anchor > 3100 and rng.random() < 0.5
    variant = anchor + (-1 if down else 1) * rng.randint(1, 30) * 100
    hidden = (
        f'<span class="{rng.choice(("price current", "price variant-price"))}" '
        f'data-variant="{rng.choice(("XL", "Bundle", "Refurb"))}" {rng.choice(_HIDING)}>'
        f"{escape(fmt(variant))}</span>"
    )
    parts = [rng.choice(_OLD).format(escape(fmt(old))), canvas + script]
    parts.insert(rng.randint(0, 2), hidden)
    return f'<div class="price-box">{"".join(parts)}</div>'


def _recently_viewed(rng: Random, fmt: listing.PriceFormat, name: str) -> str:
    names = listing.other_products(rng, name, rng.randint(1, 3))
    names.insert(rng.randint(0, len(names)), name)
    items = "".join(
        f'<li class="rv-item"><a class="rv-name" href="/p/{token(rng, 8)}">{escape(item)}</a> '
        f'<span class="{rng.choice(("price", "price current"))}">'
        f"{escape(fmt(listing.cents(rng)))}</span></li>"
        for item in names
    )
    return (
        '<aside class="recently-viewed"><h2>Recently viewed</h2>'
        f'<ul class="rv-list">{items}</ul></aside>'
    )


def generate(rng: Random) -> Generated:
    fmt = listing.price_style(rng)
    name = pools.product_name(rng)
    canvas_id = f"price-{token(rng, 8)}"
    endpoint = f"/api/price/{token(rng, 10)}"
    box = _price_box(rng, fmt, canvas_id, _drawing_script(canvas_id, endpoint, rng))
    featured = listing.featured_article(rng, name, box)
    related = listing.related_section(rng, name, fmt)
    sections = [featured, related, _recently_viewed(rng, fmt, name)]
    rng.shuffle(sections)
    html = wrap_page(
        rng,
        title=name,
        main_html="\n".join(sections),
        # Same chrome level as the solvable twin (text_by_class_decoys, easy): page size
        # must not tell a limitation page from its twin.
        difficulty=Difficulty.EASY,
        breadcrumbs=("Home", "Shop", rng.choice(pools.NOUNS)),
    )
    query = queries.featured_price(name)
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        truth=None,
        limitation=LimitationInfo(
            reasons=(LimitReason.CANVAS_TEXT,), evidence_tokens=(canvas_id, endpoint)
        ),
    )


ARCHETYPE = ArchetypeSpec(
    id="canvas_text",
    category=Category.LIMITATION,
    difficulty=Difficulty.HARD,
    solvable=False,
    version=2,
    phase="phase2",
    description="The featured price is drawn on a canvas from a fetched endpoint; decoys static.",
    answer_schema=queries.PRICE_SCHEMA,
    generate=generate,
)
