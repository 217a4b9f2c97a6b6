"""Full text of a review body whose markup mixes text, ``<br>``, ``<em>`` and nested spans.

Skill: knowing that ``tag.string`` is ``None`` when a tag has several children, and using
``get_text()`` (then collapsing whitespace) instead; ``get_text(" ")`` is also wrong here
because it inserts spaces before punctuation that directly follows an inline tag.
Shortcuts resisted: other reviews have plain-text bodies where ``.string`` works; a
highlights box quotes the start of the same review under a look-alike class
(``review-body-excerpt``); the store's reply sits inside the same review card, so taking the
card's whole text over-collects.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_WRAPS = (
    ("<em>", "</em>"),
    ("<strong>", "</strong>"),
    ('<span class="hl">', "</span>"),
    ('<span class="hl"><b>', "</b></span>"),
    ("<i>", "</i>"),
)
_BREAKS = ("<br>\n", "<br><br>\n", "<br/>\n  ")


def _sentence(rng: Random, styled: bool, at_end: bool = False) -> tuple[str, str]:
    """(html, text) of one sentence; a styled one wraps a run of words in inline tags.

    ``at_end`` puts the wrapped run last, so the full stop directly follows a closing tag.
    """
    words = pools.sentence(rng, rng.randint(4, 10))[:-1].split(" ")
    end = rng.choice(".!.")
    if not styled:
        text = " ".join(words) + end
        return escape(text), text
    start = rng.randrange(len(words))
    stop = len(words) if at_end else rng.randint(start + 1, min(len(words), start + 3))
    start = max(start, stop - 3)
    opening, closing = rng.choice(_WRAPS)
    head, mid, tail = words[:start], words[start:stop], words[stop:]
    html = " ".join([*head, f"{opening}{' '.join(mid)}{closing}", *tail]) + end
    text = " ".join(words) + end
    return html, text


def _body(rng: Random, rich: bool) -> tuple[str, str]:
    """(inner html, displayed text with whitespace collapsed) of a review body."""
    count = rng.randint(3, 5) if rich else rng.randint(1, 2)
    html_parts: list[str] = []
    text_parts: list[str] = []
    for index in range(count):
        forced = rich and index == 1
        html, text = _sentence(rng, forced or (rich and rng.random() < 0.6), forced)
        if index:
            sep = rng.choice(_BREAKS) if rich and rng.random() < 0.5 else " "
            html_parts.append(sep)
            text_parts.append(" ")
        html_parts.append(html)
        text_parts.append(text)
    if rich and "<br" not in "".join(html_parts):
        html_parts.insert(2, "<br>\n")
    return "\n    " + "".join(html_parts) + "\n  ", " ".join("".join(text_parts).split())


def _review(rng: Random, author: str, body_html: str, store: str, reply: bool) -> str:
    stars = rng.randint(1, 5)
    reply_html = (
        f'<div class="review-reply"><strong>Response from {escape(store)}</strong>'
        f"<p>{escape(pools.sentence(rng, 9))}</p></div>"
        if reply
        else ""
    )
    return (
        f'<article class="review" id="review-{token(rng, 6)}"><header>'
        f'<h3 class="review-title">{escape(pools.sentence(rng, 3)[:-1])}</h3>'
        f'<span class="review-author">{escape(author)}</span> '
        f'<span class="stars" aria-label="{stars} out of 5">{"★" * stars}{"☆" * (5 - stars)}</span>'
        f'</header><div class="review-body">{body_html}</div>{reply_html}'
        '<footer>Helpful? <button type="button">Yes</button></footer></article>'
    )


def generate(rng: Random) -> Generated:
    authors = pools.unique(rng, pools.person_name, rng.randint(3, 5))
    target = rng.randrange(len(authors))
    store = rng.choice(pools.COMPANIES)
    reviews = []
    truth = excerpt = ""
    for index, author in enumerate(authors):
        rich = index == target or rng.random() < 0.4
        body_html, body_text = _body(rng, rich)
        if index == target:
            truth = body_text
            excerpt = " ".join(body_text.split(" ")[: rng.randint(3, 4)]).rstrip(".!")
        reply = rng.random() < (0.7 if index == target else 0.2)
        reviews.append(_review(rng, author, body_html, store, reply))
    highlight = (
        '<div class="review-highlights"><h3>Most helpful</h3>'
        f'<blockquote class="review-body-excerpt">“{escape(excerpt)}…” '
        f"<cite>{escape(authors[target])}</cite></blockquote></div>"
    )
    product = pools.product_name(rng)
    main = (
        f"<h1>{escape(product)}</h1><p>{escape(pools.sentence(rng, 12))}</p>"
        f'<section class="reviews" id="reviews"><h2>Customer reviews ({len(authors)})</h2>'
        f"{highlight}{''.join(reviews)}</section>"
    )
    html = wrap_page(rng, title=product, main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f"What does the review by {authors[target]} say? Return the full text of the review "
        "body as displayed (not its title, author, rating or the store's reply), with "
        "whitespace collapsed to single spaces."
    )
    return Generated(html=html, query=query, query_template="string_none", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="string_none",
    category=Category.GOTCHAS,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=6,
    description="Full text of a review body with mixed inline children (.string is None).",
    answer_schema=f"a string, the review body's text {queries.DISPLAYED}",
    generate=generate,
)
