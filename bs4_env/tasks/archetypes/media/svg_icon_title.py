"""The accessible title of one inline SVG icon, found by the icon's id.

Skill: ``soup.find("svg", id=...)`` (or ``soup.find(id=...)``) and then the ``<title>``
*inside* it: ``soup.title`` is the page's own title in the head, not the icon's.
Shortcuts resisted: ``soup.title`` answers the page title on every seed; the other icons
have near-duplicate ids (one character apart) and titles of the same kind about the same
product; each icon also has a ``<desc>`` with a longer text, and its button a visible
label that differs from the title.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_ACTIONS = (
    ("Save", "Add {} to your wishlist"),
    ("Share", "Share {} with a friend"),
    ("Compare", "Compare {} with similar items"),
    ("Manual", "Download the {} manual"),
    ("Size", "Open the {} size guide"),
    ("Zoom", "Zoom into the {} photo"),
    ("Alert", "Get a price alert for {}"),
    ("Print", "Print the {} spec sheet"),
)


def generate(rng: Random) -> Generated:
    product = pools.product_name(rng)
    actions = rng.sample(_ACTIONS, rng.randint(3, 5))
    target_id = f"icon-{token(rng, 5)}"
    ids = [target_id] + [
        target_id[:-1] + c
        for c in rng.sample([c for c in "abcdefghk" if c != target_id[-1]], len(actions) - 1)
    ]
    buttons = []
    for icon_id, (label, title) in zip(ids, actions, strict=True):
        buttons.append(
            f'<button type="button" class="icon-btn"><svg id="{icon_id}" width="20" height="20" '
            f'viewBox="0 0 20 20" role="img"><title>{escape(title.format(product))}</title>'
            f"<desc>{escape(pools.sentence(rng, 6))}</desc>"
            f'<path d="M2 2h16v16H2z"/></svg> {label}</button>'
        )
    truth = actions[0][1].format(product)
    rng.shuffle(buttons)
    main = f'<h1>{escape(product)}</h1><div class="toolbar">{"".join(buttons)}</div>'
    html = wrap_page(rng, title=product, main_html=main, difficulty=ARCHETYPE.difficulty)
    return Generated(
        html=html,
        query=f'What does the <title> element inside the SVG icon with id "{target_id}" say?',
        query_template="svg_icon_title",
        truth=truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="svg_icon_title",
    category=Category.MEDIA,
    difficulty=Difficulty.PRIMER,
    solvable=True,
    version=1,
    phase="phase2",
    description="The <title> inside one SVG icon (not the page title), near-duplicate ids.",
    answer_schema='a string, the title text (e.g. "Add Aero Kettle to your wishlist")',
    generate=generate,
)
