"""Author and rating of the n-th review of one section, with other elements between reviews.

Skill: counting elements of one class, not children or tags: ``section.select(".review")
[n - 1]`` or ``:nth-child(n of .review)`` (soupsieve supports the ``of S`` form), scoped to
the section named by its heading.
Shortcuts resisted: ads, month headings, tips and a promo card built with the same
``<article>`` tag sit between the reviews, always with a promo card before the requested
one, so ``.review:nth-child(n)``, ``article:nth-of-type(n)`` and ``.review:nth-of-type(n)``
answer wrongly; a second review section (similar products) comes first on half the pages,
so counting ``.review`` over the whole page is wrong there; the section headings share the
word "Reviews", so the heading must be matched exactly.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools, selector_pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_TITLES = ("Customer reviews", "Reviews", "What buyers say", "Ratings & reviews")
_OTHER_TITLES = ("Reviews of similar products", "Reviews of the previous model", "Staff reviews")


def _section(title: str, children: list[str], css: str) -> str:
    return (
        f'<section class="{css}"><h2>{escape(title)}</h2>'
        f'<div class="review-list">\n{chr(10).join(children)}\n</div></section>'
    )


def generate(rng: Random) -> Generated:
    count = rng.randint(5, 9)
    other_count = rng.randint(2, 4)
    authors = pools.unique(rng, pools.person_name, count + other_count)
    stars = [rng.randint(1, 5) for _ in authors]
    nth = rng.randint(2, count)
    children = [
        selector_pools.review_card(rng, a, s)
        for a, s in zip(authors[:count], stars[:count], strict=True)
    ]
    # A promo card (an <article> too) always precedes the requested review.
    children.insert(rng.randint(0, nth - 1), selector_pools.promo_article(rng))
    for _ in range(rng.randint(1, 3)):
        children.insert(rng.randint(0, len(children)), selector_pools.filler(rng))
    others = [
        selector_pools.review_card(rng, a, s)
        for a, s in zip(authors[count:], stars[count:], strict=True)
    ]
    title = rng.choice(_TITLES)
    sections = [
        _section(title, children, "reviews"),
        _section(rng.choice(_OTHER_TITLES), others, "reviews reviews--related"),
    ]
    rng.shuffle(sections)
    product = pools.product_name(rng)
    main = (
        f'<div class="product-head"><h1>{escape(product)}</h1>'
        f"<p>{escape(pools.sentence(rng, 12))}</p></div>" + "\n".join(sections)
    )
    html = wrap_page(rng, title=product, main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f'In the "{title}" section, who wrote the {selector_pools.ordinal(nth)} review '
        "(counting only reviews, from the top), and how many stars did it give?"
    )
    truth = {"author": authors[nth - 1], "stars": stars[nth - 1]}
    return Generated(html=html, query=query, query_template="nth_review", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="nth_review_interleaved",
    category=Category.SELECTORS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Author and stars of the n-th review of a section, with ads/promos between.",
    answer_schema=(
        'an object {"author": the reviewer\'s name as displayed, "stars": the star rating as '
        'an integer from 1 to 5}, e.g. {"author": "Ada Costa", "stars": 4}'
    ),
    generate=generate,
)
