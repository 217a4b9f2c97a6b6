"""The visible text of one notice whose markup hides scripts, templates, noscript fallbacks,
comments and hidden spans between its words.

Skill: extracting only what a browser (with JavaScript on) shows: remove ``<script>``,
``<style>``, ``<template>`` and ``<noscript>`` elements and elements hidden with the
``hidden`` attribute or ``display:none`` (``tag.decompose()``), leave comments out, then
``get_text()`` and collapse whitespace.
Shortcuts resisted: every target notice holds a ``<noscript>`` fallback or a hidden span,
so a plain ``get_text()`` over-collects on every page (html.parser and lxml already skip
script, style and template strings; html5lib does not, so there a plain ``get_text()``
also returns code); comments, scripts and templates carry words too; the notice is found by
its heading among look-alike notices with the same kinds of hidden content.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_HEADINGS = (
    "Delivery update",
    "Returns policy",
    "Store closure",
    "Price promise",
    "Service notice",
    "Recall notice",
    "Holiday hours",
    "Warranty extension",
)


def _hidden(rng: Random, kind: int) -> str:
    """One element (or comment) a browser with JavaScript on does not display."""
    words = escape(pools.sentence(rng, rng.randint(2, 5))[:-1])
    if kind == 0:
        return f"<noscript>{words}</noscript>"
    if kind == 1:
        return rng.choice(
            (
                "<span hidden>{}</span>",
                '<span style="display:none">{}</span>',
                '<em class="alt" style="display: none;">{}</em>',
            )
        ).format(words)
    if kind == 2:
        # Only what a browser defines: a page script calling an undefined function is broken.
        return (
            f"<script>window.__n='{token(rng)}';"
            f"(window.dataLayer=window.dataLayer||[]).push({{'notice':'{words}'}});</script>"
        )
    if kind == 3:
        return f"<style>.callout-{token(rng, 4)} b{{color:#{rng.randint(0, 0xFFFFFF):06x}}}</style>"
    if kind == 4:
        return f'<template><span class="slot">{words}</span></template>'
    return f"<!-- {words} -->"


def _body(rng: Random) -> tuple[str, str]:
    """(html, displayed text) of a notice body with hidden elements between its words."""
    paragraphs = [
        pools.sentence(rng, rng.randint(6, 12)).split(" ") for _ in range(rng.randint(1, 3))
    ]
    slots = [(p, w) for p, words in enumerate(paragraphs) for w in range(len(words) - 1)]
    kinds = [rng.randrange(2)] + [rng.randrange(6) for _ in range(rng.randint(1, 3))]
    chosen = rng.sample(slots, min(len(kinds), len(slots)))
    html_words = [[escape(w) for w in words] for words in paragraphs]
    for (p, w), kind in zip(chosen, kinds, strict=False):
        html_words[p][w] += " " + _hidden(rng, kind)
    if rng.random() < 0.5:  # a visible inline tag, which does count
        p = rng.randrange(len(paragraphs))
        w = rng.randrange(len(paragraphs[p]))
        html_words[p][w] = f"<b>{html_words[p][w]}</b>"
    html = "\n".join(f"<p>{' '.join(words)}</p>" for words in html_words)
    return html, " ".join(" ".join(words) for words in paragraphs)


def generate(rng: Random) -> Generated:
    headings = rng.sample(_HEADINGS, rng.randint(2, 3))
    target = rng.randrange(len(headings))
    blocks = []
    truth = ""
    for index, heading in enumerate(headings):
        body, text = _body(rng)
        truth = text if index == target else truth
        blocks.append(
            f'<div class="callout" id="notice-{token(rng, 5)}"><h3>{escape(heading)}</h3>'
            f'<div class="callout-body">\n{body}\n</div></div>'
        )
    product = pools.product_name(rng)
    main = f"<h1>{escape(product)}</h1><p>{escape(pools.sentence(rng, 12))}</p>" + "\n".join(blocks)
    html = wrap_page(rng, title=product, main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f'What does the "{headings[target]}" notice say? Return the text of its body (not its '
        "heading) as a browser with JavaScript enabled shows it: leave out script, style, "
        "template and noscript content, comments, and elements hidden with the hidden "
        "attribute or display:none."
    )
    return Generated(html=html, query=query, query_template="visible_text_notice", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="visible_text_notice",
    category=Category.TEXT,
    difficulty=Difficulty.HARD,
    solvable=True,
    version=5,
    phase="phase2",
    description="Visible text of a notice hiding noscript, template, script and hidden spans.",
    answer_schema=(
        f"a string, the body's visible text (paragraphs joined by one space) {queries.DISPLAYED}"
    ),
    generate=generate,
)
