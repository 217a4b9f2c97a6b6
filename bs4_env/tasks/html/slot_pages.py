"""Whole pages around one blocking slot element, a limitation page or its solvable twin.

Each family's element builders live in its own module (``canvas_slots``, ``glyph_fonts``,
``result_forms``, ``text_images``, ``mounts``); the page chrome's copies of the blocking
elements (``blocker_copies``) use them too. The functions here wrap a layout holding one such
element in the chrome, so they sit above both: the element modules never import the chrome.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import (
    canvas_slots,
    glyph_fonts,
    lookalikes,
    mounts,
    result_forms,
    slot_tables,
    text_images,
)
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.html.slots import Slotted
from bs4_env.tasks.html.twin_pages import TwinPage
from bs4_env.tasks.model import LimitReason


def canvas_page(rng: Random, with_fallback: bool) -> TwinPage:
    """A product page or a report page whose requested value is drawn on a canvas."""
    template = rng.choice(canvas_slots.TEMPLATES)
    # A price canvas stands in for the price in the same price box either way; a chart
    # without its table leaves one table fewer, which the blocked table layout makes up.
    blocked = template == "column_by_header" and not with_fallback
    layout = slot_tables.build(rng, template, blocked=blocked)
    if template == "featured_price":
        slot, tokens = canvas_slots.price_canvas(rng, str(layout.truth) if with_fallback else None)
    else:
        slot, tokens = canvas_slots.chart_canvas(
            rng, layout.name, layout.data if with_fallback else None
        )
    # Either way the slot holds a canvas: the chrome carries one fewer harmless one.
    html = _wrapped(rng, layout, layout.main(rng, slot), LimitReason.CANVAS_TEXT)
    return TwinPage(html, layout.query, layout.truth, tokens)


def font_page(rng: Random, scrambled: bool) -> TwinPage:
    """A product or contact page whose requested value is set in a custom font."""
    template = rng.choice(glyph_fonts.TEMPLATES)
    # A scrambled price is marked up like a plain one, so the price layout is the plain
    # page's; a scrambled phone's contact layout must keep the number out of its JSON-LD.
    layout = slot_tables.build(rng, template, blocked=scrambled and template == "contact_phone")
    subject = "price" if template == "featured_price" else "phone"
    value = glyph_fonts.font_value(rng, subject, str(layout.truth), scrambled)
    in_head = rng.random() < 0.5
    # Plain or scrambled, the value's font is a font element: the chrome carries one
    # fewer harmless one, so both kinds of page draw the same counts.
    html = _wrapped(
        rng,
        layout,
        layout.main(rng, value.element, [] if in_head else [value.style]),
        LimitReason.FONT_OBFUSCATION,
        value.style if in_head else "",
    )
    return TwinPage(html, layout.query, layout.truth, value.tokens)


def form_page(rng: Random, with_defaults: bool) -> TwinPage:
    """A titled table or listing behind a form; ``with_defaults`` renders the default results."""
    template = rng.choice(result_forms.TEMPLATES)
    layout = slot_tables.build(rng, template, blocked=not with_defaults)
    form = result_forms.result_form(rng, layout.subject)
    if with_defaults:
        inner = f'<p class="results-hint">Showing: {escape(form.default)}</p>{layout.data}'
    else:
        inner = f'<p class="results-hint">{rng.choice(lookalikes.EMPTY_HINTS)}</p>'
    # Either way the block holds a POST form: the chrome carries one fewer harmless
    # one, so both kinds of page draw the same counts.
    html = _wrapped(
        rng, layout, layout.main(rng, form.form + form.box(inner)), LimitReason.FORM_SUBMISSION
    )
    return TwinPage(html, layout.query, layout.truth, form.tokens)


def image_page(rng: Random, with_text: bool) -> TwinPage:
    """A contact page or a report page whose requested data is published as an image."""
    template = rng.choice(text_images.TEMPLATES)
    layout = slot_tables.build(rng, template, blocked=not with_text)
    if template == "contact_phone":
        slot, tokens = text_images.phone_image(rng, str(layout.truth) if with_text else None)
    else:
        slot, tokens = text_images.table_image(rng, layout.name, layout.data if with_text else None)
    # Either way the slot holds an image of text: the chrome carries one fewer one.
    html = _wrapped(rng, layout, layout.main(rng, slot), LimitReason.IMAGE_TEXT)
    return TwinPage(html, layout.query, layout.truth, tokens)


def mounted_page(
    rng: Random, layout: Slotted, mount: mounts.Mount, slot: str, extras: list[str]
) -> str:
    """The whole page of a mount: the renderer scripts in the head or the main region.

    Every such page, blocked or not, tells the chrome it holds a JS-rendering element, so
    the chrome carries one fewer harmless one and both kinds draw the same counts.
    """
    in_head = rng.random() < 0.5
    scripts = mount.scripts()
    return _wrapped(
        rng,
        layout,
        layout.main(rng, slot, extras if in_head else [*extras, scripts]),
        LimitReason.JS_RENDERED,
        scripts if in_head else "",
    )


def _wrapped(
    rng: Random, layout: Slotted, main_html: str, limitation: LimitReason, head: str = ""
) -> str:
    """The chrome around a slotted layout's main region; ``head`` joins the layout's head."""
    return wrap_page(
        rng,
        title=layout.title,
        main_html=main_html,
        difficulty=layout.chrome,
        breadcrumbs=layout.breadcrumbs,
        extra_head=layout.extra_head + head,
        limitation=limitation,
    )
