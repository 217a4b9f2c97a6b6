"""Harmless copies of each kind's blocking element: same builder, same slot, same words.

A model that sees only an element's own surface (its tag, attributes, id and class shapes,
its words, its parent, whether it sits in the main region) finds the blocker of a
limitation page if the blocker is the only element of its make there. So the page chrome
carries copies of the blocking elements themselves, built by the very builder the
limitation page uses (``walls``, ``canvas_slots``, ``glyph_fonts``, ``result_forms``,
``text_images``, ``feeds``, ``mounts``, ``media_pages``, ``pdf_viewers``), for the same
subjects in the same shares, always in the main region. Each copy stands in the frame a
requested subject stands in, drawn by the same builder from the same pools (issue 39): a
product's featured article and price box (``div.price-box < div.summary < article``), a
store's contact section, a table block whose caption is worded like the page's tables and
of their year, a listing section, a recording's article; of the page's own kind when the main region
shows one (a blocker stands beside decoys of its kind); its name is one the main region
does not hold, so no request names a copy. Parts a blocking page puts among its main
sections or in its head (a font's ``<style>``, a renderer's scripts) go there for a copy as
often. A copy blocks only its own frame, so a page stays solvable or keeps its one blocker;
only the request says which element stands where the data should be, and nothing around
an element (ancestors, siblings, frame title, caption year; ``checks.leak_context``) tells.
On a page of a blocked request's layout the copies' kinds are those that block there, as
often (``copy_layouts``): a copy of a kind that never blocks on such a page (an endless
feed beside a store's other branch) is told from the blocker by its frame's siblings.

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
    media_articles,
    media_shows,
    mounts,
    pdf_viewers,
    pools,
    result_forms,
    slot_tables,
    slots,
    text_images,
    walls,
)
from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.html.copy_layouts import SUBJECT_MARKS, marks_in
from bs4_env.tasks.model import LimitReason
from bs4_env.tasks.rng import between, token


@dataclass(frozen=True)
class Copy:
    """A framed copy for the main region, and a part placed beside it (or in the head)."""

    block: str
    loose: str = ""
    in_head: bool = False


def _fresh(rng: Random, draw: Callable[[Random], str], page: str) -> str:
    """A name drawn by ``draw`` (the pool a requested name comes from) that ``page`` does
    not hold, so no request names a copy's frame."""
    for _ in range(100):
        name = draw(rng)
        if escape(name) not in page:
            return name
    raise ValueError("every name the pool draws is on the page already")


def _subject(rng: Random, choices: tuple[str, ...], page: str) -> str:
    """One of ``choices``, among those whose frames ``page`` holds if any: a blocker stands
    in the page's own kind of frame, beside decoys of that kind, and so do its copies."""
    marks = marks_in(page)
    present = tuple(subject for subject in choices if SUBJECT_MARKS[subject] in marks)
    return rng.choice(present or choices)


def frame(rng: Random, subject: str, inner: str, page: str, caption: str | None = None) -> str:
    """``inner`` in the frame a requested ``subject`` stands in, drawn by the same builder
    (``slots``, ``slot_tables``, ``media_pages``) with a title from the same pool that the
    main region ``page`` does not hold: a product's featured article and price box, a
    store's contact section, a table block titled like the page's tables (``caption``, a
    fresh one when None), a listing section, a recording's article."""
    if subject == "price":
        name = _fresh(rng, pools.product_name, page)
        fmt = listing.price_style(rng)
        box = slots.price_box(rng, fmt, listing.cents(rng, 8, 900), inner, blocked=True)[0]
        return listing.featured_article(rng, name, box)
    if subject == "phone number":
        store = _fresh(rng, articles.store_name, page)
        street, press = articles.street_address(rng), articles.phone_number(rng)
        return articles.contact_section(rng, store, street, inner, press)
    if subject == "table":
        title = caption if caption is not None else tb.page_caption(rng, page)
        return slot_tables.heading_block(rng, title).replace(slots.SLOT, inner)
    if subject == "listing":
        section = _fresh(rng, feeds.section_name, page)
        return (
            f'<section class="listing" id="listing-{token(rng, 6)}"><h2 class="listing-title">'
            f"{escape(section)}</h2>\n{inner}</section>"
        )
    raise ValueError(f"no slot frame for {subject!r}")


def _framed(rng: Random, subject: str, inner: str, page: str, caption: str | None = None) -> Copy:
    return Copy(frame(rng, subject, inner, page, caption))


def bot_check(rng: Random, page: str) -> Copy:
    """As ``bot_wall``: a challenge standing in for a price, phone, table or listing."""
    subject = _subject(rng, ("price", "phone number", "table", "listing"), page)
    return _framed(rng, subject, walls.challenge(rng, subject, blocking=True).html, page)


def sign_in_gate(rng: Random, page: str) -> Copy:
    """As ``login_required``: a sign-in gate standing in for a price or phone number."""
    subject = _subject(rng, ("price", "phone number"), page)
    blur = rng.random() < 0.6
    return _framed(rng, subject, walls.sign_in_gate(rng, subject, True, blur).html, page)


def canvas(rng: Random, page: str) -> Copy:
    """As ``canvas_text``: a price canvas, or a chart of a table, drawn from an endpoint."""
    if _subject(rng, ("price", "table"), page) == "price":
        return _framed(rng, "price", canvas_slots.price_canvas(rng, None)[0], page)
    caption = tb.page_caption(rng, page)
    chart = canvas_slots.chart_canvas(rng, caption, None)[0]
    return _framed(rng, "table", chart, page, caption)


def scrambled_font(rng: Random, page: str) -> Copy:
    """As ``font_obfuscation``: a price or phone in private-use glyphs of a custom font,
    its ``<style>`` in the head or among the main sections."""
    if _subject(rng, ("price", "phone number"), page) == "price":
        subject, text = "price", listing.price_style(rng)(listing.cents(rng, 8, 900))
    else:
        subject, text = "phone", articles.phone_number(rng)
    value = glyph_fonts.font_value(rng, subject, text, scrambled=True)
    framed = frame(rng, "price" if subject == "price" else "phone number", value.element, page)
    return Copy(framed, value.style, in_head=rng.random() < 0.5)


def result_form(rng: Random, page: str) -> Copy:
    """As ``form_submission``: a filter form above an empty results box."""
    subject = _subject(rng, ("table", "listing"), page)
    form = result_forms.result_form(rng, subject)
    hint = f'<p class="results-hint">{rng.choice(lookalikes.EMPTY_HINTS)}</p>'
    return _framed(rng, subject, form.form + form.box(hint), page)


def text_image(rng: Random, page: str) -> Copy:
    """As ``image_text``: a phone number or a table published as an image."""
    if _subject(rng, ("phone number", "table"), page) == "phone number":
        return _framed(rng, "phone number", text_images.phone_image(rng, None)[0], page)
    caption = tb.page_caption(rng, page)
    image = text_images.table_image(rng, caption, None)[0]
    return _framed(rng, "table", image, page, caption)


def endless_feed(rng: Random, page: str) -> Copy:
    """As ``infinite_scroll``: a listing's first screen, its trigger and loader."""
    fmt = listing.price_style(rng)
    names = pools.unique(rng, pools.product_name, between(rng, 8, 18))
    draws = feeds.card_draws(rng, len(names))
    shown = between(rng, 3, min(8, len(names) - 3))
    # The first screen shows the first cards only: the others are drawn, not built.
    cards = [feeds.card(name, fmt, d) for name, d in zip(names[:shown], draws, strict=False)]
    list_id = f"items-{token(rng, 6)}"
    trigger = feeds.trigger(rng, list_id, feeds.next_page_url(rng))
    hiding = rng.randrange(len(feeds.HIDING))
    style = rng.randrange(feeds.CARD_STYLES)
    screen = feeds.first_screen(
        rng, cards, style, shown, list_id, hiding, trigger, total=len(names)
    )
    return _framed(rng, "listing", screen, page)


def mount(rng: Random, page: str) -> Copy:
    """As ``js_rendered``: an empty mount node, its ``<noscript>`` and its renderer scripts
    in the head or among the main sections."""
    subject = _subject(rng, ("table", "price", "listing"), page)
    node = mounts.mount(rng, subject)
    slot = node.node(None, spinner=rng.random() < 0.75) + mounts.noscript(subject)
    return Copy(frame(rng, subject, slot, page), node.scripts(), in_head=rng.random() < 0.5)


def recording(rng: Random, page: str) -> Copy:
    """As ``media_only``: a recording's player (video, audio or an embedded player) in the
    recording's article and its "More" section, as ``media_pages`` frames one."""
    kind = rng.choice(tuple(media_shows.SHOWS))
    title = _fresh(rng, lambda r: media_shows.title_of(r, kind), page)
    article = media_articles.recording_article(rng, kind, title, "recording")
    return Copy(article.html + media_articles.more_media(rng, kind, title, article.phrase))


def pdf_viewer(rng: Random, page: str) -> Copy:
    """As ``pdf_embed``: an embedded PDF viewer in a titled table block."""
    caption = tb.page_caption(rng, page)
    return _framed(rng, "table", pdf_viewers.pdf_viewer(rng, caption).html, page, caption)


COPIES: MappingProxyType[LimitReason, Callable[[Random, str], Copy]] = MappingProxyType(
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
"""The copy builder of each limitation kind (given the main region the copy joins)."""
