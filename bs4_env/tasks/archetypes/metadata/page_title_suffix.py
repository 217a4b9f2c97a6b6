"""The page's ``<title>`` text without the " | Site name" suffix the site appends.

Skill: ``soup.title`` (the document's title element, in the head) and ``str.rsplit`` on the
last separator; BeautifulSoup unescapes entities (``&amp;``) in the title text.
Shortcuts resisted: the visible ``<h1>`` names the product but is not the title; an inline
SVG icon in the body carries its own ``<title>`` (so "the last ``title`` element" is
wrong); some titles hold a " | " of their own (so splitting on the first one is wrong) or
an ``&`` written as ``&amp;`` (so a regex over the raw HTML is wrong).
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_TAGS = ("Free delivery", "Best price", "Order online", "In stock", "Official store", "Sale")
_ICONS = ("Add to basket", "Add to wishlist", "Share", "Compare", "Zoom image", "Print")


def _title(rng: Random, product: str, noun: str) -> str:
    style = rng.randrange(6)
    if style == 0:
        return f"Buy {product} online"
    if style == 1:
        return f"{product} – {rng.choice(_TAGS)}"
    if style == 2:
        return f"{product} & {rng.choice(pools.NOUNS).lower()} set"
    if style == 3:
        return f"{product} | {noun}s"
    if style == 4:
        return f"{product} ({rng.choice(pools.ADJECTIVES)} edition)"
    return f"{rng.choice(pools.WORDS).capitalize()} {product} – {rng.choice(_TAGS)}"


def generate(rng: Random) -> Generated:
    noun = rng.choice(pools.NOUNS)
    product = f"{rng.choice(pools.ADJECTIVES)} {noun}{rng.choice(pools.SUFFIXES)}"
    title = _title(rng, product, noun)
    icon = (
        '<button class="icon-btn" type="button"><svg width="16" height="16" viewBox="0 0 16 16" '
        f'role="img"><title>{rng.choice(_ICONS)}</title><path d="M2 2h12v12H2z"/></svg></button>'
    )
    main = (
        f"<h1>{escape(product)}</h1><p>{escape(pools.sentence(rng, rng.randint(6, 12)))}</p>{icon}"
    )
    html = wrap_page(rng, title=title, main_html=main, difficulty=ARCHETYPE.difficulty)
    return Generated(
        html=html,
        query=(
            "The text of this page's <title> element ends with \" | \" and the site's name. "
            'What is the title text before that last " | "?'
        ),
        query_template="page_title_suffix",
        truth=title,
    )


ARCHETYPE = ArchetypeSpec(
    id="page_title_suffix",
    category=Category.METADATA,
    difficulty=Difficulty.PRIMER,
    solvable=True,
    version=1,
    phase="phase2",
    description="The page <title> without its site-name suffix; an SVG title and h1 differ.",
    answer_schema=(
        'a string, the title text before the last " | " (e.g. for "Buy Aero Kettle online | '
        'Acme" the answer is "Buy Aero Kettle online")'
    ),
    generate=generate,
)
