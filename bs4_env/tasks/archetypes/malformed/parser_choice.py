"""Malformed markup where the parser decides the tree: answer as a browser builds the DOM.

Skill: knowing that ``html.parser`` does not apply HTML5's implied end tags or its
adoption-agency repair, and choosing ``make_soup("html5lib")`` when the request asks for
the tree a browser builds. Each target relies on one repair rule: a ``<p>`` closed by a
``<div>``/``<p>``, unclosed ``<li>``/``<option>``/``<td>``/``<dt>``/``<dd>``, a heading
closed by another heading, nested ``<a>``, misnested ``<b><i></b></i>``.
Shortcuts resisted: with ``html.parser`` every target swallows its following siblings (or
loses a re-opened ``<i>``), so the naive answer is wrong on every seed; decoy blocks of
other kinds, a stray ``</div>``, text directly inside a ``<table>`` and a ``<form>`` inside
a table sit around it; texts come from large pools.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

Block = tuple[str, str, str]  # (html, question, truth)
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


def _p_div(rng: Random, i: str) -> Block:
    a, b = _texts(rng, 2)
    tail = rng.choice(('<div class="note">{}</div>', '<p class="more">{}'))
    html = f'<p id="{i}" class="lead">{escape(a)} {tail.format(escape(b))}'
    return html, f'what is the text of the paragraph with id "{i}"?', a


def _list(rng: Random, i: str) -> Block:
    items = _texts(rng, rng.randint(3, 6))
    k = rng.randint(1, len(items) - 1)
    html = f'<ul id="{i}" class="features">' + "".join(f"<li>{escape(t)}" for t in items)
    return html + "</ul>", f'what is the text of item {k} of the list with id "{i}"?', items[k - 1]


def _options(rng: Random, i: str) -> Block:
    items = pools.unique(rng, pools.product_name, rng.randint(3, 6))
    k = rng.randint(1, len(items) - 1)
    opts = "".join(f'<option value="{token(rng, 5)}">{escape(t)}' for t in items)
    html = f'<label>Choose a model <select id="{i}" name="model">{opts}</select></label>'
    return html, f'what is the text of option {k} of the drop-down with id "{i}"?', items[k - 1]


def _table(rng: Random, i: str) -> Block:
    names = pools.unique(rng, pools.product_name, rng.randint(3, 5))
    rows = [(n, pools.price(rng), pools.sku(rng)) for n in names]
    body = "".join(f"<tr><td>{escape(n)}<td>{p}<td>{s}</tr>" for n, p, s in rows)
    html = (
        f'<table id="{i}" class="compare"><tr><th>Item</th><th>Price</th><th>SKU</th></tr>'
        f"{body}</table>"
    )
    row = rng.choice(rows)
    column = rng.randint(1, 2)
    header = ("Item", "Price", "SKU")[column]
    question = (
        f'in the table with id "{i}", what is the "{header}" value of the row whose first '
        f'cell is "{row[0]}"?'
    )
    return html, question, row[column]


def _dl(rng: Random, i: str) -> Block:
    terms = rng.sample(_TERMS, rng.randint(3, 5))
    values = _texts(rng, len(terms))
    html = f'<dl id="{i}" class="specs">' + "".join(
        f"<dt>{t}<dd>{escape(v)}" for t, v in zip(terms, values, strict=True)
    )
    k = rng.randrange(len(terms))
    question = f'what definition does the list with id "{i}" give for the term "{terms[k]}"?'
    return html + "</dl>", question, values[k]


def _bold_italic(rng: Random, i: str) -> Block:
    pre, bold, both, italic, post = _texts(rng, 5)
    html = (
        f'<p id="{i}" class="promo">{escape(pre)} <b>{escape(bold)} <i>{escape(both)}</b> '
        f"{escape(italic)}</i> {escape(post)}</p>"
    )
    question = f'what is the text of the last italic (<i>) element in the paragraph with id "{i}"?'
    return html, question, italic


def _link(rng: Random, i: str) -> Block:
    a, b = _texts(rng, 2)
    html = (
        f'<p class="links"><a id="{i}" href="/p/{token(rng, 8)}">{escape(a)} '
        f'<a href="/p/{token(rng, 8)}">{escape(b)}</a></a></p>'
    )
    return html, f'what is the text of the link with id "{i}"?', a


def _heading(rng: Random, i: str) -> Block:
    a, b = _texts(rng, 2)
    level = rng.randint(2, 3)
    html = f'<h{level} id="{i}">{escape(a)}<h{level + 1}>{escape(b)}</h{level + 1}>'
    return html, f'what is the text of the heading with id "{i}"?', a


_KINDS: tuple[tuple[str, Callable[[Random, str], Block]], ...] = (
    ("intro", _p_div),
    ("list", _list),
    ("pick", _options),
    ("grid", _table),
    ("spec", _dl),
    ("promo", _bold_italic),
    ("link", _link),
    ("title", _heading),
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
    version=1,
    phase="phase2",
    description="Malformed markup where only HTML5 (browser) parsing gives the right element.",
    answer_schema="a string, the element's text in the browser's DOM, whitespace collapsed",
    generate=generate,
)
