"""Malformed markup where the parser decides the tree: answer as a browser builds the DOM.

Skill: knowing that neither ``html.parser`` nor ``lxml`` (libxml2) applies the HTML5 tree
construction rules a browser uses, and choosing ``make_soup("html5lib")`` when the request
asks for the tree a browser builds. Each target relies on one HTML5 rule that both lenient
parsers get wrong: the adoption agency re-opening ``<i>``/``<b>`` after a misnested end
tag, a link closed where a nested link starts, a heading closed by the next heading, foster
parenting of a block written inside ``<table>``, ``<image>`` read as ``<img>``, and ``</br>``
read as ``<br>``.
Shortcuts resisted: with ``html.parser`` and with ``lxml`` the answer is wrong on every seed
(a test measures both); decoy blocks of other kinds, a stray ``</div>``, text directly
inside a ``<table>`` and a ``<form>`` inside a table sit around it; texts come from large
pools.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, JSONValue
from bs4_env.tasks.rng import token

Block = tuple[str, str, JSONValue]  # (html, question, truth)
_LEADS = (
    "The markup on this page is malformed. Parse it the way a web browser does (HTML5 "
    "parsing rules) and answer: {q}",
    "Reading the page as a browser would build its DOM (HTML5 parsing rules), {q}",
    "As a browser would parse it (HTML5 rules, not a lenient tag-by-tag reading): {q}",
)
_TERMS = ("Material", "Origin", "Model", "Weight", "Finish", "Care", "Batch", "Capacity")


def _text(rng: Random) -> str:
    if rng.random() < 0.5:
        return f"{pools.product_name(rng)} {pools.sentence(rng, rng.randint(3, 6)).lower()}"
    return pools.sentence(rng, rng.randint(4, 8))


def _texts(rng: Random, n: int) -> list[str]:
    return pools.unique(rng, _text, n)


def _bold_italic(rng: Random, i: str) -> Block:
    pre, bold, both, italic, post = _texts(rng, 5)
    html = (
        f'<p id="{i}" class="promo">{escape(pre)} <b>{escape(bold)} <i>{escape(both)}</b> '
        f"{escape(italic)}</i> {escape(post)}</p>"
    )
    question = f'what is the text of the last italic (<i>) element in the paragraph with id "{i}"?'
    return html, question, italic


def _bold_paragraph(rng: Random, i: str) -> Block:
    lead, inner, after = _texts(rng, 3)
    # </b> inside a <p> that <b> started outside: HTML5 re-opens <b> inside the paragraph.
    html = (
        f'<div id="{i}" class="teaser"><b>{escape(lead)}<p>{escape(inner)}</b> '
        f"{escape(after)}</p></div>"
    )
    question = f'what is the text of the last bold (<b>) element in the block with id "{i}"?'
    return html, question, inner


def _link(rng: Random, i: str) -> Block:
    a, b, c = _texts(rng, 3)
    # A link inside a block inside a link: HTML5 closes the outer link at the inner one.
    html = (
        f'<a id="{i}" class="card-link" href="/p/{token(rng, 8)}">{escape(a)}<div class="sub">'
        f'<a href="/p/{token(rng, 8)}">{escape(b)}</a></div>{escape(c)}</a>'
    )
    return html, f'what is the text of the link with id "{i}"?', a


def _heading(rng: Random, i: str) -> Block:
    a, b = _texts(rng, 2)
    level = rng.randint(2, 3)
    html = f'<h{level} id="{i}">{escape(a)}<h{level + 1}>{escape(b)}</h{level + 1}>'
    return html, f'what is the text of the heading with id "{i}"?', a


def _foster(rng: Random, i: str) -> Block:
    note, decoy = _texts(rng, 2)
    rows = "".join(
        f"<tr><td>{escape(pools.product_name(rng))}</td><td>{pools.price(rng)}</td></tr>"
        for _ in range(rng.randint(2, 4))
    )
    tag = rng.choice(("div", "p", "span"))
    # A block written inside <table> but outside any cell is moved before the table.
    html = (
        f'<p class="intro">{escape(decoy)}</p><table id="{i}" class="prices">'
        f'<{tag} class="note">{escape(note)}</{tag}>{rows}</table>'
    )
    question = (
        f'what is the text of the element that comes immediately before the table with id "{i}" '
        "(its previous sibling element)?"
    )
    return html, question, note


def _image_tags(rng: Random, i: str) -> Block:
    srcs = [f"/img/gallery/{token(rng, 8)}.jpg" for _ in range(rng.randint(3, 5))]
    # Old CMS output: <image> is an HTML5 alias of <img>; a browser builds <img> elements.
    tags = "".join(
        f'<{rng.choice(("image", "img", "image"))} src="{src}" alt="{escape(_text(rng))}">'
        for src in srcs
    )
    if "<image" not in tags:
        tags = tags.replace("<img", "<image", 1)
    html = f'<div id="{i}" class="gallery">{tags}</div>'
    question = (
        f'list the src of every image element (<img>) in the gallery with id "{i}", in '
        "document order (answer a list of strings)?"
    )
    return html, question, srcs


def _broken_breaks(rng: Random, i: str) -> Block:
    lines = [
        pools.person_name(rng),
        f"{rng.randint(1, 999)} {rng.choice(pools.LAST_NAMES)} Street",
        f"{rng.choice(pools.CITIES)} {rng.randint(10000, 99999)}",
    ]
    # "</br>" is a common typo; HTML5 turns it into a <br>, lenient parsers drop it.
    breaks = [rng.choice(("</br>", "</br>", "<br>")) for _ in lines[1:]]
    if "</br>" not in breaks:
        breaks[0] = "</br>"
    body = escape(lines[0]) + "".join(
        b + escape(line) for b, line in zip(breaks, lines[1:], strict=True)
    )
    html = f'<address id="{i}" class="ship-to">{body}</address>'
    question = (
        f'split the address with id "{i}" into its lines at each line break (<br>) and return '
        "the lines as a list of strings?"
    )
    return html, question, lines


_KINDS: tuple[tuple[str, Callable[[Random, str], Block]], ...] = (
    ("promo", _bold_italic),
    ("teaser", _bold_paragraph),
    ("link", _link),
    ("title", _heading),
    ("grid", _foster),
    ("gallery", _image_tags),
    ("addr", _broken_breaks),
)


def _background(rng: Random) -> list[str]:
    """Malformations that do not touch the target but break naive structural assumptions."""
    return [
        f'<div class="callout"><div class="inner">{escape(_text(rng))}</div></div></div>',
        f'<table class="specs">{escape(_text(rng))}<tr><td>{escape(pools.product_name(rng))}'
        f"</td><td>{pools.price(rng)}</td></tr></table>",
        '<table class="cart"><form action="/cart" method="post"><tr><td>'
        f'<input name="qty" value="{rng.randint(1, 9)}"></td><td><button>Update</button>'
        "</td></tr></form></table>",
    ]


def generate(rng: Random) -> Generated:
    picked = rng.sample(_KINDS, rng.randint(3, 4))
    blocks = [make(rng, f"{prefix}-{token(rng, 5)}") for prefix, make in picked]
    _, question, truth = blocks[0]
    sections = [f'<section class="block">{html}</section>' for html, _, _ in blocks]
    sections += rng.sample(_background(rng), rng.randint(2, 3))
    rng.shuffle(sections)
    html = wrap_page(
        rng,
        title=pools.product_name(rng),
        main_html="\n".join(sections),
        difficulty=ARCHETYPE.difficulty,
    )
    return Generated(
        html=html,
        query=rng.choice(_LEADS).format(q=question),
        query_template="parser_choice",
        truth=truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="parser_choice",
    category=Category.MALFORMED,
    difficulty=Difficulty.HARD,
    solvable=True,
    version=6,
    phase="phase2",
    description="Malformed markup where only HTML5 (browser) parsing gives the right element.",
    answer_schema=(
        "a string, the element's text in the browser's DOM, whitespace collapsed (or the list "
        "of strings the request asks for)"
    ),
    generate=generate,
)
