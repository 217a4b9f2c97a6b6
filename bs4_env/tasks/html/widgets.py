"""Page widgets that carry the signatures of unextractable content in harmless roles.

A page that cannot be extracted statically is marked by some element: a canvas, a script
that fetches data, an embedded PDF, a challenge form, a sign-in wall, a "load more"
button, a custom font, a video, a POST form. If only limitation pages carried such
elements, "abstain whenever one is present" would score like reading the page. So every
page (at easy difficulty and above) carries a random set of them in roles that block
nothing: a canvas chart of something else, a reviews loader, a PDF download for another
document, a captcha on the newsletter form, and so on. A limitation page draws the same
set, with its blocking element standing in for one widget of the same kind, so the kinds
and counts of these elements are distributed alike on both. Every widget is a copy of its
kind's blocking element (``blocker_copies``: same builder, same slot frame, in the main
region), so the blocker's own surface does not point at it either (``COPY_SHARE``). On a
page of a blocked request's layout (a product, contact, report or listing page, a
recording's page) the copies' kinds are drawn as blockers' kinds are on that layout, and a
few more copies join them (``LAYOUT_COPIES``), so no frame around an element says which
one blocks (issue 39).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from itertools import accumulate
from random import Random
from types import MappingProxyType

from bs4_env.tasks.html import blocker_copies, copy_layouts, feeds, lookalikes, pools
from bs4_env.tasks.html.blocker_copies import Copy
from bs4_env.tasks.html.icon_fonts import font_face, icon_glyphs
from bs4_env.tasks.model import DIFFICULTY_RANK, Difficulty, LimitReason
from bs4_env.tasks.rng import between, sample, shuffle, token, weighted

Widget = Callable[[Random], str]


def async_loader(rng: Random) -> str:
    """Reviews (or Q&A) loaded from an endpoint after the page loads."""
    what = rng.choice(("reviews", "questions", "ratings", "comments"))
    box = f"{what}-{token(rng, 6)}"
    endpoint = f"/api/{what}/{token(rng, 8)}?page=1"
    return (
        f'<section class="{what}-widget"><h3>Customer {what}</h3>'
        f'<div id="{box}" class="{what}-list" data-endpoint="{endpoint}" aria-busy="true">'
        f'<div class="spinner">Loading {what}…</div></div>'
        f"<noscript>Enable JavaScript to see {what}.</noscript>"
        "<script>window.addEventListener('DOMContentLoaded',function(){"
        f"fetch('{endpoint}').then(function(r){{return r.json();}}).then(function(d){{"
        f"document.getElementById('{box}').innerHTML=d.html;}});}});</script></section>"
    )


def canvas_chart(rng: Random) -> str:
    """A chart drawn on a canvas: price history, visitors or ratings, never the content."""
    subject = rng.choice(("Price history", "Rating breakdown", "Visitors this week", "Stock level"))
    chart = f"chart-{token(rng, 6)}"
    points = ",".join(str(rng.randint(1, 99)) for _ in range(rng.randint(5, 9)))
    return (
        f'<figure class="mini-chart"><canvas id="{chart}" width="{rng.choice((240, 300))}" '
        f'height="{rng.choice((80, 120))}" role="img" aria-label="{subject}">{subject}</canvas>'
        f"<figcaption>{subject}</figcaption></figure>"
        f"<script>(function(){{var x=document.getElementById('{chart}').getContext('2d');"
        f"[{points}].forEach(function(v,i){{x.fillRect(i*24,100-v,18,v);}});}})();</script>"
    )


def image_banner(rng: Random) -> str:
    """Images whose pixels hold text nobody asks for: a store front, a badge, lazy banners."""
    kind = rng.randrange(3)
    if kind == 0:
        return (
            f'<img class="storefront" src="/img/contact/storefront-{token(rng, 8)}.jpg" '
            f'alt="Our store front" width="320" height="180" loading="lazy">'
        )
    if kind == 1:
        return (
            f'<img class="badge" src="/img/badges/{token(rng, 8)}.png" alt="" width="96" '
            'height="96">'
        )
    return (
        f'<img class="lazy banner" data-src="/img/banners/{token(rng, 8)}.webp" '
        f'src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="{escape(pools.sentence(rng, 4))}">'
    )


def pdf_document(rng: Random) -> str:
    """A PDF of another document: a download link or an embedded viewer of the terms."""
    name = rng.choice(("terms", "catalogue", "warranty", "privacy", "size-guide", "brochure"))
    url = f"/docs/{name}-{token(rng, 8)}.pdf"
    title = name.replace("-", " ").capitalize()
    kind = rng.randrange(4)
    if kind == 0:
        return f'<p class="download"><a href="{url}" download>Download the {title} (PDF)</a></p>'
    if kind == 1:
        return (
            f'<details class="doc"><summary>{title}</summary><iframe src="{url}" '
            f'title="{title}" width="100%" height="320" loading="lazy"></iframe></details>'
        )
    if kind == 2:
        return (
            f'<div class="doc"><object data="{url}" type="application/pdf" width="100%" '
            f'height="320"><a href="{url}">{title} (PDF)</a></object></div>'
        )
    return (
        f'<div class="doc"><embed src="{url}" type="application/pdf" width="100%" '
        'height="320"></div>'
    )


def challenge_widget(rng: Random) -> str:
    """A captcha on the newsletter or comment form: a bot check that blocks nothing else."""
    key = token(rng, 16)
    return (
        '<form class="comment-form" action="/comments" method="post">'
        '<textarea name="body" placeholder="Write a comment"></textarea>'
        f'<div class="cf-turnstile" data-sitekey="0x{key}" data-action="comment"></div>'
        '<button type="submit">Post</button></form>'
        '<script src="https://challenges.example/turnstile/v0/api.js" async defer></script>'
    )


def sign_in(rng: Random) -> str:
    """A sign-in link or a hidden sign-in dialog (members-only areas elsewhere on the site)."""
    # It returns to the page it is on, like the sign-in gates of ``walls``.
    back = f"/{rng.choice(('p', 'stores', 'account'))}/{token(rng, 6)}&amp;ref={token(rng, 9)}"
    if rng.random() < 0.5:
        return (
            f'<div class="account-links"><a class="sign-in" href="/login?next={back}">Sign in'
            '</a> · <a href="/register">Create account</a></div>'
        )
    return (
        f'<div class="modal" id="signin-{token(rng, 6)}" hidden><h4>Welcome back</h4>'
        '<form action="/session" method="post"><input type="email" name="login_email">'
        '<input type="password" name="login_pw"><button>Sign in</button></form></div>'
    )


def load_more(rng: Random) -> str:
    """Comments or an activity feed that scrolls on forever, beside whatever the page is for.

    It runs the listings' own loader (``feeds.trigger``) with a cursor endpoint, so the
    words of an endless feed (``nextPage``, ``dataset``, ``next``) are on pages of every kind.
    """
    what = rng.choice(("comments", "activity", "questions"))
    feed_id = f"{what}-{token(rng, 6)}"
    entries = "".join(
        f'<li class="feed-item">{escape(pools.sentence(rng, rng.randint(5, 9)))}</li>'
        for _ in range(rng.randint(2, 4))
    )
    loader = feeds.trigger(rng, feed_id, f"/api/{what}/{token(rng, 8)}?cursor={token(rng, 10)}")
    return (
        f'<section class="{what}-feed"><h3>Latest {what}</h3>'
        f'<ul class="feed" id="{feed_id}">{entries}</ul>{loader.html}{loader.script}</section>'
    )


def icon_font(rng: Random) -> str:
    """Social icons drawn with a private-use icon font (glyphs, not text)."""
    family = f"icons-{token(rng, 5)}"
    hidden = ' aria-hidden="true"' if rng.random() < 0.6 else ""
    icons = "".join(
        f'<a href="https://{site}.example/{token(rng, 6)}" aria-label="{site}">'
        f'<i class="icon"{hidden}>{icon_glyphs(rng, 1)}</i></a>'
        for site in sample(rng, ("social", "video", "photos", "chat", "news"), 3)
    )
    return (
        f"<style>{font_face(family)}.icon{{font-family:'{family}',sans-serif;}}</style>"
        f'<div class="social">{icons}</div>'
    )


def media_player(rng: Random) -> str:
    """A promotional video or podcast episode that nobody asks about."""
    clip = token(rng, 8)
    kind = rng.randrange(3)
    if kind == 0:
        return (
            f'<video class="promo" src="/media/promo-{clip}.mp4" poster="/img/poster-{clip}.jpg" '
            'controls muted preload="none"></video>'
        )
    if kind == 1:
        return (
            f'<iframe class="video-embed" src="https://video.example/embed/{clip}" '
            'title="Brand video" allowfullscreen loading="lazy"></iframe>'
        )
    return f'<audio class="podcast" controls src="/media/episode-{clip}.mp3"></audio>'


def post_form(rng: Random) -> str:
    """A form whose answer page is dynamic: order tracking or a store locator."""
    if rng.random() < 0.5:
        return (
            '<form class="track" action="/orders/track" method="post"><label>Order number '
            f'<input name="order" pattern="[0-9]{{{rng.randint(6, 9)}}}"></label>'
            '<button type="submit">Track</button></form>'
        )
    return (
        '<form class="locator" action="/stores/search" method="post"><label>Postcode '
        '<input name="postcode"></label><button type="submit">Find a store</button></form>'
    )


WIDGETS: MappingProxyType[LimitReason, tuple[Widget, ...]] = MappingProxyType(
    {
        LimitReason.JS_RENDERED: (async_loader,),
        LimitReason.CANVAS_TEXT: (canvas_chart, lookalikes.fetched_chart),
        LimitReason.IMAGE_TEXT: (image_banner, lookalikes.table_image),
        LimitReason.PDF_EMBED: (pdf_document, lookalikes.pdf_viewer),
        LimitReason.BOT_WALL: (challenge_widget, lookalikes.review_check),
        LimitReason.LOGIN_REQUIRED: (sign_in, lookalikes.member_teaser),
        LimitReason.INFINITE_SCROLL: (load_more,),
        LimitReason.FONT_OBFUSCATION: (icon_font, lookalikes.icon_rating),
        LimitReason.MEDIA_ONLY: (media_player,),
        LimitReason.FORM_SUBMISSION: (post_form, lookalikes.store_finder),
    }
)
"""The harmless widgets of each limitation kind (one per ``LimitReason``, drawn evenly):
generic ones, and copies of the blocking element in a harmless role (``lookalikes``)."""

# Chance that a page carries at least one widget of a kind, by difficulty rank.
_PRESENCE = {0: 0.0, 1: 0.45, 2: 0.55, 3: 0.65}


def widget_count(rng: Random, difficulty: Difficulty, blocking: bool) -> int:
    """How many widgets of one kind a page carries.

    The blocking element of a limitation page counts as one of them, so a limitation page
    draws from the same distribution conditioned on "at least one" and builds one fewer.
    """
    presence = _PRESENCE[DIFFICULTY_RANK[difficulty]]
    if not blocking and rng.random() >= presence:
        return 0
    count = 1 + int(rng.random() < 0.3)
    return count - 1 if blocking else count


COPY_SHARE = 1.0
"""Chance that a harmless widget is a copy of its kind's blocking element
(``blocker_copies``) rather than one of the generic ``WIDGETS``. Below 1 the page has fewer
elements that look like a blocker, and the leak audit's element finder finds it more
often: on 60 train / 30 held-out seeds per limitation archetype, 0.167 at 0.75 against
0.090 at 1.0 (chance 0.085 and 0.083; ``bs4_env.checks.leak_elements``)."""


LAYOUT_COPIES = (3, 5)
"""How many more copies (bounds of an even draw) a page of a blocked request's layout
carries besides its widgets, their kinds drawn as blockers' kinds are there
(``copy_layouts.layout_kinds``). A request-blind finder that tells the blocker and its
copies from a page's other candidates (a tracking pixel, a head script) but not from each
other picks the blocker among 1 + copies: with the widgets alone (6.6 copies on average)
that is 0.149 of limitation pages against chance 0.084, with 3 to 5 more (10.6) 0.090
against 0.059. The context finder (``checks.leak_context``) found 0.146 and 0.080 (60
train / 90 and 120 held-out seeds per limitation archetype; issue 39); limitation pages
grew from 25.5 to 29.5 thousand characters on average, other pages from 28.9 to 30.2."""


def page_widgets(
    rng: Random, difficulty: Difficulty, limitation: LimitReason | None = None, page: str = ""
) -> list[str | Copy]:
    """The harmless widgets of one page, in random order: markup for the chrome or the main
    region, or a framed copy of a blocking element for the main region ``page`` (whose
    names and caption year a copy's frame takes into account). When ``page`` shows the
    layout of a request that a blocker can stand in, every copy's kind is drawn as the
    blockers' kinds are on that layout, and ``LAYOUT_COPIES`` more copies join them."""
    if limitation is not None and DIFFICULTY_RANK[difficulty] == 0:
        raise ValueError("limitation pages need chrome of difficulty easy or above")
    chosen: list[str | Copy] = []
    # On a page of a blocked request's layout each copy's kind is drawn as blockers' kinds
    # are there (``copy_layouts.layout_kinds``); elsewhere each widget copies its own kind.
    weights = copy_layouts.layout_kinds(page)
    # ``rng.choices`` given the weights sums them on every call; summed once here they are
    # the same cumulative weights (the same floats), so each draw (``weighted``) is the same.
    kinds, shares = list(weights), list(accumulate(weights.values()))
    for reason, builders in WIDGETS.items():
        for _ in range(widget_count(rng, difficulty, blocking=reason is limitation)):
            if rng.random() < COPY_SHARE:
                kind = weighted(rng, kinds, shares) if kinds else reason
                chosen.append(blocker_copies.COPIES[kind](rng, page))
            else:
                chosen.append(rng.choice(builders)(rng))
    if kinds:
        for _ in range(between(rng, *LAYOUT_COPIES)):
            kind = weighted(rng, kinds, shares)
            chosen.append(blocker_copies.COPIES[kind](rng, page))
    shuffle(rng, chosen)
    return chosen
