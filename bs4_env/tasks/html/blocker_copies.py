"""Harmless copies of each kind's blocking element: same builder, same slot, same words.

A model that sees only an element's own surface (its tag, attributes, id and class shapes,
its words, its parent, whether it sits in the main region) finds the blocker of a
limitation page if the blocker is the only element of its make there. So the page chrome
carries copies of the blocking elements themselves, built by the very builder the
limitation page uses (``walls``, ``canvas_slots``, ``glyph_fonts``, ``result_forms``,
``text_images``, ``feeds``, ``mounts``, ``media_pages``, ``pdf_viewers``), for the same
subjects in the same shares, always in the main region, each inside a frame like the slot a
blocker stands in: a price box, a contact row's ``<dd>``, a titled table block, a titled
listing section, a player box. Parts a blocking page puts among its main sections or in
its head (a font's ``<style>``, a renderer's scripts) go there for a copy as often. A copy
blocks only its own frame, whose title no request names, so a page stays solvable or keeps
its one blocker; only the request says which element stands where the data should be.

The element builders sit below this module and the chrome (whole pages around them are
``slot_pages`` and ``media_pages``), so it imports them like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from random import Random
from types import MappingProxyType

from bs4_env.tasks.html import (
    articles,
    canvas_slots,
    feeds,
    glyph_fonts,
    listing,
    lookalikes,
    media_players,
    media_shows,
    mounts,
    pdf_viewers,
    pools,
    result_forms,
    text_images,
    walls,
)
from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.model import LimitReason
from bs4_env.tasks.rng import token


@dataclass(frozen=True)
class Copy:
    """A framed copy for the main region, and a part placed beside it (or in the head)."""

    block: str
    loose: str = ""
    in_head: bool = False


# Frame titles no request names: no product, store, listing or recording title is drawn
# from these (their pools hold names, "<topic> <kind>", numbered episodes). A table's frame
# is titled by its caption, as a requested table's is (``tables.archived_caption``).
_TITLES = {
    "price": ("Members' corner", "Deal of the day", "Bundle offer", "Gift set", "Refurbished"),
    "phone number": ("Repairs", "Returns desk", "Events line", "Head office", "Lost property"),
    "listing": ("Top picks", "Editors' choice", "Back soon", "Community favourites", "Wish lists"),
    "recording": ("Behind the scenes", "Brand video", "Highlights", "Trailer", "Live session"),
}


def frame(rng: Random, subject: str, inner: str, caption: str | None = None) -> str:
    """``inner`` where a slot of ``subject`` holds its data: the same parent element
    (a table's block titled ``caption``, a fresh one when None)."""
    if subject == "table":
        title = escape(caption if caption is not None else tb.archived_caption(rng))
    else:
        title = escape(rng.choice(_TITLES[subject]))
    if subject == "price":
        return f'<div class="card"><h3>{title}</h3><div class="price-box">{inner}</div></div>'
    if subject == "phone number":
        return f'<dl class="contact"><dt>{title}</dt><dd>{inner}</dd></dl>'
    if subject == "table":
        intro = f"<p>{escape(pools.sentence(rng, rng.randint(6, 12)))}</p>"
        return (
            f'<section class="table-block"><h2 class="section-title">{title}</h2>'
            f"{intro if rng.random() < 0.5 else ''}{inner}</section>"
        )
    if subject == "listing":
        return (
            f'<section class="listing" id="listing-{token(rng, 6)}">'
            f'<h2 class="listing-title">{title}</h2>{inner}</section>'
        )
    if subject == "recording":
        return (
            f'<section class="recording"><h2>{title}</h2>'
            f'<div class="player">{inner}</div></section>'
        )
    raise ValueError(f"no slot frame for {subject!r}")


def _framed(rng: Random, subject: str, inner: str, caption: str | None = None) -> Copy:
    return Copy(frame(rng, subject, inner, caption))


def bot_check(rng: Random) -> Copy:
    """As ``bot_wall``: a challenge standing in for a price, phone, table or listing."""
    subject = rng.choice(("price", "phone number", "table", "listing"))
    return _framed(rng, subject, walls.challenge(rng, subject, blocking=True).html)


def sign_in_gate(rng: Random) -> Copy:
    """As ``login_required``: a sign-in gate standing in for a price or phone number."""
    subject = rng.choice(("price", "phone number"))
    blur = rng.random() < 0.6
    return _framed(rng, subject, walls.sign_in_gate(rng, subject, True, blur).html)


def canvas(rng: Random) -> Copy:
    """As ``canvas_text``: a price canvas, or a chart of a table, drawn from an endpoint."""
    if rng.random() < 0.5:
        return _framed(rng, "price", canvas_slots.price_canvas(rng, None)[0])
    caption = tb.archived_caption(rng)
    return _framed(rng, "table", canvas_slots.chart_canvas(rng, caption, None)[0], caption)


def scrambled_font(rng: Random) -> Copy:
    """As ``font_obfuscation``: a price or phone in private-use glyphs of a custom font,
    its ``<style>`` in the head or among the main sections."""
    if rng.random() < 0.5:
        subject, text = "price", listing.price_style(rng)(listing.cents(rng, 8, 900))
    else:
        subject, text = "phone", articles.phone_number(rng)
    value = glyph_fonts.font_value(rng, subject, text, scrambled=True)
    framed = frame(rng, "price" if subject == "price" else "phone number", value.element)
    return Copy(framed, value.style, in_head=rng.random() < 0.5)


def result_form(rng: Random) -> Copy:
    """As ``form_submission``: a filter form above an empty results box."""
    subject = rng.choice(("table", "listing"))
    form = result_forms.result_form(rng, subject)
    hint = f'<p class="results-hint">{rng.choice(lookalikes.EMPTY_HINTS)}</p>'
    return _framed(rng, subject, form.form + form.box(hint))


def text_image(rng: Random) -> Copy:
    """As ``image_text``: a phone number or a table published as an image."""
    if rng.random() < 0.5:
        return _framed(rng, "phone number", text_images.phone_image(rng, None)[0])
    caption = tb.archived_caption(rng)
    return _framed(rng, "table", text_images.table_image(rng, caption, None)[0], caption)


def endless_feed(rng: Random) -> Copy:
    """As ``infinite_scroll``: a listing's first screen, its trigger and loader."""
    fmt = listing.price_style(rng)
    names = pools.unique(rng, pools.product_name, rng.randint(8, 18))
    cards = feeds.draw_cards(rng, names, fmt)
    shown = rng.randint(3, min(8, len(cards) - 3))
    list_id = f"items-{token(rng, 6)}"
    trigger = feeds.trigger(rng, list_id, feeds.next_page_url(rng))
    hiding = rng.randrange(len(feeds.HIDING))
    style = rng.randrange(feeds.CARD_STYLES)
    screen = feeds.first_screen(rng, cards, style, shown, list_id, hiding, trigger)
    return _framed(rng, "listing", screen)


def mount(rng: Random) -> Copy:
    """As ``js_rendered``: an empty mount node, its ``<noscript>`` and its renderer scripts
    in the head or among the main sections."""
    subject = rng.choice(("table", "price", "listing"))
    node = mounts.mount(rng, subject)
    slot = node.node(None, spinner=rng.random() < 0.75) + mounts.noscript(subject)
    return Copy(frame(rng, subject, slot), node.scripts(), in_head=rng.random() < 0.5)


def recording(rng: Random) -> Copy:
    """As ``media_only``: a recording's player (video, audio or an embedded player)."""
    show = media_shows.SHOWS[rng.choice(tuple(media_shows.SHOWS))]
    title = rng.choice(_TITLES["recording"])
    return _framed(
        rng, "recording", media_players.player(rng, rng.choice(show.players), title).html
    )


def pdf_viewer(rng: Random) -> Copy:
    """As ``pdf_embed``: an embedded PDF viewer in a titled table block."""
    caption = tb.archived_caption(rng)
    return _framed(rng, "table", pdf_viewers.pdf_viewer(rng, caption).html, caption)


COPIES: MappingProxyType[LimitReason, Callable[[Random], Copy]] = MappingProxyType(
    {
        LimitReason.JS_RENDERED: mount,
        LimitReason.CANVAS_TEXT: canvas,
        LimitReason.IMAGE_TEXT: text_image,
        LimitReason.PDF_EMBED: pdf_viewer,
        LimitReason.BOT_WALL: bot_check,
        LimitReason.LOGIN_REQUIRED: sign_in_gate,
        LimitReason.INFINITE_SCROLL: endless_feed,
        LimitReason.FONT_OBFUSCATION: scrambled_font,
        LimitReason.MEDIA_ONLY: recording,
        LimitReason.FORM_SUBMISSION: result_form,
    }
)
"""The copy builder of each limitation kind."""
