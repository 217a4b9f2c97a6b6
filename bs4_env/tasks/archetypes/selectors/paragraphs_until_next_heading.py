"""The paragraphs of one section of a guide: from its heading up to the next heading.

The request bounds the guide's last section by the end of the guide, not by the next
heading of the page (a cookie banner or footer may follow with headings and paragraphs).

Skill: walking the following siblings of a heading and stopping at the next heading
(``for sib in h2.find_next_siblings(): if sib.name == "h2": break``), keeping only ``<p>``.
Shortcuts resisted: the general sibling combinator ``h2 ~ p`` and
``find_next_siblings("p")`` run past the next heading into later sections; ``find_next("p")``
returns only the first paragraph; figures, lists and notes sit between the paragraphs; a
table of contents repeats every heading text as a link before the article body, so
searching for the heading's text alone can land in the contents.
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
    "Before you start",
    "Unpacking",
    "First setup",
    "Charging",
    "Cleaning",
    "Storage",
    "Troubleshooting",
    "Warranty",
    "Connecting to Wi-Fi",
    "Updating the firmware",
    "Safety notes",
    "Accessories",
    "Travelling with it",
    "Recycling",
)


def _paragraph(rng: Random) -> tuple[str, str]:
    """(html, displayed text) of a paragraph, sometimes with an inline tag."""
    words = pools.sentence(rng, rng.randint(6, 14))[:-1].split(" ")
    text = " ".join(words) + "."
    if rng.random() < 0.4:
        at = rng.randrange(len(words))
        tag = rng.choice(("em", "strong", "code"))
        words[at] = f"<{tag}>{words[at]}</{tag}>"
    return f"<p>{' '.join(words)}.</p>", text


def _extra(rng: Random) -> str:
    """Something between paragraphs that is not a paragraph."""
    kind = rng.randrange(3)
    if kind == 0:
        return (
            f'<figure><img src="/media/{token(rng, 8)}.jpg" alt=""><figcaption>'
            f"{escape(pools.sentence(rng, 5))}</figcaption></figure>"
        )
    if kind == 1:
        items = "".join(f"<li>{escape(pools.sentence(rng, 3))}</li>" for _ in range(3))
        return f"<ul>{items}</ul>"
    return f'<div class="note">Note: {escape(pools.sentence(rng, 7))}</div>'


def generate(rng: Random) -> Generated:
    headings = rng.sample(_HEADINGS, rng.randint(4, 6))
    target = rng.randrange(len(headings))
    body: list[str] = []
    truth: list[str] = []
    for index, heading in enumerate(headings):
        body.append(f'<h2 id="{token(rng, 6)}">{escape(heading)}</h2>')
        count = rng.randint(2, 4) if index == target else rng.randint(1, 3)
        for _ in range(count):
            html, text = _paragraph(rng)
            body.append(html)
            if index == target:
                truth.append(text)
            if rng.random() < 0.4:
                body.append(_extra(rng))
    toc = "".join(f'<li><a href="#{token(rng, 6)}">{escape(h)}</a></li>' for h in headings)
    product = pools.product_name(rng)
    main = (
        f'<article class="guide"><h1>{escape(product)}: user guide</h1>'
        f'<nav class="toc"><h2>Contents</h2><ul>{toc}</ul></nav>\n' + "\n".join(body) + "</article>"
    )
    html = wrap_page(rng, title=f"{product} guide", main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f'In the guide, what are the paragraphs of the section "{headings[target]}"? Return '
        "the text of every paragraph (p element) from that heading up to the next heading "
        "or the end of the guide, in order."
    )
    return Generated(
        html=html, query=query, query_template="paragraphs_until_next_heading", truth=truth
    )


ARCHETYPE = ArchetypeSpec(
    id="paragraphs_until_next_heading",
    category=Category.SELECTORS,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="Paragraphs from one heading up to the next (h2 ~ p runs past it).",
    answer_schema=(
        'a list of strings, one per paragraph in order (e.g. ["First paragraph.", "Second '
        f'paragraph."]), each {queries.DISPLAYED}'
    ),
    generate=generate,
)
