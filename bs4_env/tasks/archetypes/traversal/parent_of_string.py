"""Find the element holding an exact string, then climb to the ancestor the user asks about.

Skill: ``soup.find_all(string="...")`` (exact, case-sensitive) and ``find_parent(...)`` to the
enclosing product card (its ``data-sku``) or ``<section>`` (its ``id``), skipping matches
inside hidden elements (``hidden`` attribute or inline ``display:none`` on any ancestor).
Shortcuts resisted: the same string also sits in a hidden card or section, in a sidebar
outside any card, and in a different-case variant inside another visible card or section;
so the first match, a case-insensitive search or a regex over the raw HTML goes wrong.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_HIDE = (" hidden", ' style="display:none"', ' style="display: none;"')
_ERRORS = ("token expired", "quota exceeded", "device offline", "checksum mismatch", "sync paused")


def _variant(rng: Random, text: str) -> str:
    """The same words in another letter case (never identical to ``text``)."""
    options = (text.upper(), text.lower(), text.title(), text.capitalize())
    return rng.choice([option for option in options if option != text])


def _wrap_hidden(rng: Random, markup: str) -> str:
    """Hide a block itself or through a wrapping ancestor."""
    if rng.random() < 0.5:
        return f'<div class="carousel-slide"{rng.choice(_HIDE)}>{markup}</div>'
    return markup.replace(">", f"{rng.choice(_HIDE)}>", 1)


def _review(rng: Random, author: str) -> str:
    stars = rng.randint(1, 5)
    return (
        f'<li class="review" data-rating="{stars}"><p class="review-body">'
        f"{escape(pools.sentence(rng, rng.randint(6, 12)))}</p>"
        f'<footer>— <span class="author">{escape(author)}</span></footer></li>'
    )


def _card(rng: Random, sku: str, authors: list[str]) -> str:
    reviews = "".join(_review(rng, a) for a in authors)
    return (
        f'<article class="product-card" data-sku="{sku}">'
        f"<h3>{escape(pools.product_name(rng))}</h3>"
        f'<p class="price">{pools.price(rng)}</p><ul class="reviews">{reviews}</ul></article>'
    )


def _reviews_page(rng: Random) -> tuple[str, str, str]:
    """(main html, query, truth) for the product-card variant."""
    names = pools.unique(rng, pools.person_name, 14)
    target = names[0]
    others = [n for n in names[1:] if n.casefold() != target.casefold()]
    skus = pools.unique(rng, pools.sku, 8)
    count = rng.randint(4, 6)
    cards: list[str] = []
    for index in range(count):
        authors = rng.sample(others, rng.randint(1, 3))
        if index == 0:
            authors.insert(rng.randint(0, len(authors)), target)
        elif index == 1:
            authors.insert(rng.randint(0, len(authors)), _variant(rng, target))
        cards.append(_card(rng, skus[index], authors))
    hidden = _wrap_hidden(rng, _card(rng, skus[count], [target, rng.choice(others)]))
    truth = skus[0]
    blocks = [*cards, hidden]
    rng.shuffle(blocks)
    aside = (
        f'<div class="top-reviewers"><h4>Top reviewers</h4><ul><li><span class="author">'
        f"{escape(target)}</span></li><li><span>{escape(rng.choice(others))}</span></li></ul></div>"
    )
    main = f'<h1>Customer favourites</h1>{aside}<div class="grid">{"".join(blocks)}</div>'
    query = (
        f'Which product card contains a review written by "{target}"? Return the card\'s '
        "data-sku attribute. Match the author name exactly (case-sensitive) and ignore hidden "
        "elements (a hidden attribute or an inline display:none style on it or an ancestor)."
    )
    return main, query, truth


def _section(rng: Random, section_id: str, heading: str, phrase: str | None) -> str:
    items = [f"<li>{escape(pools.sentence(rng, rng.randint(5, 9)))}</li>" for _ in range(3)]
    if phrase is not None:
        items.insert(
            rng.randint(0, 3), f"<li>If you see <code>{escape(phrase)}</code>, retry.</li>"
        )
    return (
        f'<section id="{section_id}" class="doc-section"><h2>{escape(heading)}</h2>'
        f'<div class="body"><p>{escape(pools.sentence(rng, 10))}</p><ul>{"".join(items)}</ul>'
        "</div></section>"
    )


def _docs_page(rng: Random) -> tuple[str, str, str]:
    """(main html, query, truth) for the documentation-section variant."""
    phrase = f"Error {rng.randint(1000, 9999)}: {rng.choice(_ERRORS)}"
    ids = pools.unique(rng, lambda r: f"{r.choice(pools.WORDS)}-{token(r, 4)}", 7)
    headings = [f"{rng.choice(pools.NOUNS)} {rng.choice(pools.WORDS)}" for _ in ids]
    count = rng.randint(4, 6)
    sections = []
    for index in range(count):
        text = phrase if index == 0 else _variant(rng, phrase) if index == 1 else None
        sections.append(_section(rng, ids[index], headings[index].capitalize(), text))
    sections.append(_wrap_hidden(rng, _section(rng, ids[count], "Archived notes", phrase)))
    rng.shuffle(sections)
    main = f"<h1>Troubleshooting</h1>{''.join(sections)}"
    query = (
        f'What is the id of the <section> that contains the exact text "{phrase}"? Match it '
        "case-sensitively and ignore hidden elements (a hidden attribute or an inline "
        "display:none style on it or an ancestor)."
    )
    return main, query, ids[0]


def generate(rng: Random) -> Generated:
    main, query, truth = (_reviews_page if rng.random() < 0.5 else _docs_page)(rng)
    html = wrap_page(rng, title="Reviews", main_html=main, difficulty=ARCHETYPE.difficulty)
    return Generated(html=html, query=query, query_template="parent_of_string", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="parent_of_string",
    category=Category.TRAVERSAL,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    description="Ancestor (card sku or section id) of an exact visible string among decoys.",
    answer_schema="a string, the requested attribute of the enclosing element",
    generate=generate,
)
