"""How many reviews of one product give each star rating, as a rating -> count object.

Skill: scoping to the product's review list, taking each review's own rating (the rating
element whose nearest ``article.review`` ancestor is that review, read in the page's one
rating style: a title, an aria-label, a data attribute or filled star icons) and counting
per label with a dict.
Shortcuts resisted: counting every ``.rating`` in the section adds the "Most helpful" box
(a verbatim copy of one review from the list, same ``data-review-id``) and the ratings quoted in
seller replies nested inside reviews; counting over the whole page adds a second product's
reviews with the same markup; zero counts are left out, so a fixed 1..5 dict is wrong.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

STYLES = 4
_REPLIES = (
    "Thanks for the feedback, we have passed it on to the team.",
    "Sorry to hear that. Please contact support so we can help.",
    "Glad you like it! Enjoy.",
    "We appreciate the detailed review.",
)


def rating_html(stars: int, style: int) -> str:
    """A star rating in one of the page styles (all read the same to a person)."""
    if style == 0:
        shown = "★" * stars + "☆" * (5 - stars)
        return f'<span class="rating" title="{stars} out of 5 stars">{shown}</span>'
    if style == 1:
        return (
            f'<span class="rating" role="img" aria-label="Rated {stars} out of 5">'
            f'<span class="rating-value">{stars}</span>/5</span>'
        )
    if style == 2:
        meter = f'<meter value="{stars}" max="5"></meter>'
        return f'<span class="rating" data-stars="{stars}">{meter}</span>'
    icons = '<i class="star full"></i>' * stars + '<i class="star empty"></i>' * (5 - stars)
    return f'<span class="rating">{icons}</span>'


def _review(rng: Random, review_id: str, stars: int, style: int, reply: bool) -> str:
    text = escape(pools.sentence(rng, rng.randint(8, 20)))
    nested = ""
    if reply:
        nested = (
            '<div class="seller-reply"><p class="reply-label">Reply from the seller</p>'
            f'<blockquote class="quoted">{rating_html(stars, style)} '
            f"<q>{escape(pools.sentence(rng, 5))}</q></blockquote>"
            f"<p>{escape(rng.choice(_REPLIES))}</p></div>"
        )
    return (
        f'<article class="review" data-review-id="{review_id}"><header>'
        f'<span class="reviewer">{escape(pools.person_name(rng))}</span> '
        f"{rating_html(stars, style)} <time>{pools.date_iso(rng)}</time></header>"
        f'<p class="review-body">{text}</p>{nested}</article>'
    )


def _ratings(rng: Random, n: int) -> list[int]:
    """``n`` ratings from a per-page skew; some ratings may not occur at all."""
    weights = [rng.choice((0, 1, 2, 4, 8)) for _ in range(5)]
    weights[rng.randrange(5)] += 6
    return rng.choices(range(1, 6), weights, k=n)


def _section(rng: Random, product: str, style: int) -> tuple[str, dict[str, int]]:
    ratings = _ratings(rng, rng.randint(8, 32))
    ids = [f"r{token(rng, 6)}" for _ in ratings]
    replies = set(rng.sample(range(len(ratings)), rng.randint(1, max(1, len(ratings) // 4))))
    reviews = [_review(rng, ids[i], stars, style, i in replies) for i, stars in enumerate(ratings)]
    # The box shows the very same review as the list (reviewer, date, body, any reply), so
    # whoever de-duplicates by what is displayed or by data-review-id counts it once.
    helpful = f'<aside class="most-helpful"><h3>Most helpful</h3>{rng.choice(reviews)}</aside>'
    counts: dict[str, int] = {}
    for stars in sorted(ratings, reverse=True):
        counts[str(stars)] = counts.get(str(stars), 0) + 1
    html = (
        f'<section class="reviews" id="reviews-{token(rng, 6)}">'
        f"<h2>Customer reviews for {escape(product)}</h2>"
        f'<p class="summary">{len(ratings)} reviews</p>{helpful}'
        f'<div class="review-list">{"".join(reviews)}</div></section>'
    )
    return html, counts


def generate(rng: Random) -> Generated:
    product, other = pools.unique(rng, pools.product_name, 2)
    style = rng.randrange(STYLES)
    target, counts = _section(rng, product, style)
    decoy, _ = _section(rng, other, style)
    blocks = [target, decoy]
    rng.shuffle(blocks)
    html = wrap_page(
        rng,
        title=f"Reviews: {product}",
        main_html="\n".join(blocks),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Reviews", product),
    )
    query = (
        f'In the "Customer reviews for {product}" section, how many reviews give each star '
        'rating? Count each review once, by its own rating: the "Most helpful" box repeats '
        "a review from the list, and ratings quoted inside seller replies are not reviews."
    )
    return Generated(html=html, query=query, query_template="group_count_by_label", truth=counts)


ARCHETYPE = ArchetypeSpec(
    id="group_count_by_label",
    category=Category.AGGREGATION,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Reviews per star rating: a helpful-box copy and quoted ratings to ignore.",
    answer_schema=(
        'an object mapping a star rating as a string ("1" to "5") to the number of reviews '
        'with that rating, only ratings that occur (e.g. {"5": 3, "2": 1})'
    ),
    generate=generate,
)
