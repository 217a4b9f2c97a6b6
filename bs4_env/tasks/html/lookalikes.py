"""Harmless widgets built like the blocking elements of limitation pages.

A page-skimming shortcut does not stop at "is there a canvas": it reads ids, classes, URL
shapes and script words (``table-img-*``, ``/cdn-cgi/challenge/...``, ``fillText``, an
empty ``results`` box with ``aria-live``). So besides the generic widgets of ``widgets``,
the chrome draws harmless copies of the blocking elements themselves: a table published as
an image that nobody asks about, a PDF viewer of the terms, a chart drawn from fetched
data, a store finder whose results box fills after a post, a bot check on a review form, a
members-only teaser. Each is built by the same builder as the blocking element, or with
the same markup, so its vocabulary is on pages of every kind. A star rating drawn with an
icon font puts runs of private-use glyphs beside digits on pages of every kind too.

Placement and wording are shared as well (``framed``): a page's harmless widgets sit in
its main region as often as beside it, framed like the data blocks a blocker stands in
(a titled listing or table block, a price box), and the bot checks and sign-in gates they
copy use the blocking role's words ("Verify", "Sign in to see the price").
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pdf_viewers, pools, walls
from bs4_env.tasks.html.icon_fonts import font_face, icon_glyphs
from bs4_env.tasks.rng import token

EMPTY_HINTS = (
    "Results appear here after you submit the form.",
    "Make a selection above to see results.",
    "No results yet: submit the form above.",
)
"""What an empty results box says (shared with ``result_forms``)."""

_TABLE_IMAGES = ("Size chart", "Delivery zones", "Care instructions", "Opening hours")
_DOCUMENTS = ("Terms of sale", "Warranty terms", "Returns policy", "Product catalogue")
_CHARTS = ("Price history", "Rating breakdown", "Visitors this week", "Stock level")


def table_image(rng: Random) -> str:
    """A small table published only as an image (a size chart), as ``text_images`` builds one."""
    subject = rng.choice(_TABLE_IMAGES)
    return (
        f'<figure class="table-image"><img id="table-img-{token(rng, 6)}" '
        f'src="/img/tables/{token(rng, 10)}.png" alt="{subject}" '
        f'width="{rng.choice((320, 480))}" height="{rng.choice((160, 240))}" loading="lazy">'
        f"<figcaption>{subject}</figcaption></figure>"
    )


def pdf_viewer(rng: Random) -> str:
    """An embedded PDF of a document nobody asks about, with the viewers' ids and URLs."""
    return pdf_viewers.pdf_viewer(rng, rng.choice(_DOCUMENTS)).html


def fetched_chart(rng: Random) -> str:
    """A chart drawn on a canvas from an endpoint, labels and all (``fillText``)."""
    subject = rng.choice(_CHARTS)
    chart_id = f"chart-{token(rng, 8)}"
    endpoint = f"/api/charts/{token(rng, 10)}.json"
    return (
        f'<figure class="chart"><canvas id="{chart_id}" width="{rng.choice((240, 320))}" '
        f'height="{rng.choice((120, 160))}" role="img" aria-label="{subject}"></canvas>'
        f"<figcaption>{subject}</figcaption></figure>"
        "<script>(function(){"
        f"var c=document.getElementById('{chart_id}'),ctx=c.getContext('2d');"
        f"fetch('{endpoint}',{{credentials:'same-origin'}}).then(function(r){{return r.json();}})"
        ".then(function(d){ctx.font='12px sans-serif';ctx.fillStyle='#555';"
        "d.rows.forEach(function(row,i){ctx.fillRect(40,i*20,row.value,14);"
        "ctx.fillText(row.label,0,i*20+12);});});})();</script>"
    )


def store_finder(rng: Random) -> str:
    """A store finder posting a postcode; its results box stays empty until it is sent."""
    form_id = f"{rng.choice(('finder', 'search', 'query', 'filter'))}-{token(rng, 7)}"
    action = f"/{rng.choice(('lookup', 'search', 'results'))}/{token(rng, 10)}"
    return (
        f'<section class="store-finder"><h3>Find a store</h3>'
        f'<form id="{form_id}" class="store-filter" action="{action}" method="post">'
        '<label>Postcode <input name="postcode"></label>'
        '<label>Radius <select name="radius"><option selected>5 km</option>'
        "<option>10 km</option><option>25 km</option></select></label>"
        '<button type="submit">Search</button></form>'
        f'<div id="results-{token(rng, 7)}" class="results" aria-live="polite" '
        f'data-form="{form_id}"><p class="results-hint">{escape(rng.choice(EMPTY_HINTS))}</p>'
        "</div></section>"
    )


def review_check(rng: Random) -> str:
    """A bot check guarding the review form, built like a blocking one (``walls``)."""
    subject = rng.choice(("price", "table", "listing"))
    return walls.challenge(rng, subject, blocking=False).html


def member_teaser(rng: Random) -> str:
    """A members-only teaser, built like a blocking sign-in gate (``walls``)."""
    subject = rng.choice(("price", "phone number"))
    if rng.random() < 0.5:  # the gate alone, as a blocking one stands in its slot
        return walls.sign_in_gate(rng, subject, blocking=False, blur=rng.random() < 0.6).html
    return walls.teaser_block(rng, subject, blur=rng.random() < 0.6)


def icon_rating(rng: Random) -> str:
    """A star rating drawn with an icon font: a run of private-use glyphs beside digits."""

    family = f"stars-{token(rng, 5)}"
    score = f"{rng.randint(30, 50) / 10:.1f}"
    return (
        f"<style>{font_face(family)}.stars{{font-family:'{family}';}}</style>"
        f'<p class="rating"><span class="stars" title="{score} out of 5">'
        f"{icon_glyphs(rng, 5)}</span> {score} ({rng.randint(3, 900)} reviews)</p>"
    )


_FRAME_TITLES = (
    "Top picks",
    "Members' corner",
    "Downloads",
    "Community",
    "Price history",
    "Store finder",
    "Featured video",
    "Related documents",
)


def framed(rng: Random, widget: str) -> str:
    """A harmless widget framed like a page's data block (a titled listing or table block,
    a price box, a contact detail), for the main region: where blockers stand in for data."""
    title = escape(rng.choice(_FRAME_TITLES))
    kind = rng.randrange(4)
    if kind == 3:  # a contact detail's value, as a phone number's gate or image stands
        return f'<dl class="contact"><dt>{title}</dt><dd>{widget}</dd></dl>'
    if kind == 0:
        return (
            f'<section class="listing" id="listing-{token(rng, 6)}">'
            f'<h2 class="listing-title">{title}</h2>{widget}</section>'
        )
    if kind == 1:
        return (
            f'<section class="table-block"><h2 class="section-title">{title}</h2>'
            f"<p>{escape(pools.sentence(rng, rng.randint(6, 12)))}</p>{widget}</section>"
        )
    return f'<div class="card"><h3>{title}</h3><div class="price-box">{widget}</div></div>'
