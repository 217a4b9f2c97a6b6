"""Harmless widgets built like the blocking elements of limitation pages.

A page-skimming shortcut does not stop at "is there a canvas": it reads ids, classes, URL
shapes and script words (``table-img-*``, ``/cdn-cgi/challenge/...``, ``fillText``, an
empty ``results`` box with ``aria-live``). So besides the generic widgets of ``widgets``,
the chrome draws harmless copies of the blocking elements themselves: a table published as
an image that nobody asks about, a PDF viewer of the terms, a chart drawn from fetched
data, a store finder whose results box fills after a post, a bot check on a review form, a
members-only teaser. Each is built by the same builder as the blocking element, or with
the same markup, so its vocabulary is on pages of every kind.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pdf_viewers, walls
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
    return walls.teaser_block(rng, subject, blur=rng.random() < 0.6)
