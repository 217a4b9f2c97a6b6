"""Every item name of one listing whose cards hold nested sub-lists, among other entries.

Skill: taking only a list's own items (``ul.find_all("li", class_="item",
recursive=False)``) and each item's own name (the first ``.item-name`` inside it), in the
listing found by its exact heading.
Shortcuts resisted: the shared ``item_list`` request, with the section names, card markup
and decoy listings of its limitation twins (``js_rendered``, ``infinite_scroll``,
``bot_wall``); some cards nest a bundle list whose entries are product names with their own
``.item-name`` (so ``listing.select(".item-name")`` and ``ul.find_all("li")`` over-collect)
or a colour-swatch list; dividers, group labels and a promo tile are ``<li>`` elements of
the same list that are not items; decoy listings ("Recently viewed", another section) use
the same card markup.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import feeds, list_pools, listing, pools, slot_tables
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token


def _nested(rng: Random, exclude: list[str]) -> str:
    """A sub-list inside a card: bundle contents (product names) or colour swatches."""
    if rng.random() < 0.5:
        entries = "".join(
            f'<li class="bundle-item"><span class="item-name">{escape(name)}</span></li>'
            for name in feeds.other_names(rng, exclude, rng.randint(2, 3))
        )
        return f'<p class="bundle-note">Bundle includes:</p><ul class="bundle">{entries}</ul>'
    swatches = "".join(
        f'<li class="swatch">{escape(c)}</li>' for c in rng.sample(list_pools.COLOURS, 3)
    )
    return f'<ul class="swatches" aria-label="Colours">{swatches}</ul>'


def _not_an_item(rng: Random, fmt: listing.PriceFormat) -> str:
    kind = rng.randrange(3)
    if kind == 0:
        return '<li class="divider" role="separator"></li>'
    if kind == 1:
        return f'<li class="group-label">Under {escape(fmt(rng.randint(20, 200) * 100))}</li>'
    return (
        f'<li class="promo-tile"><a href="/deals/{token(rng, 6)}">Members save '
        f"{rng.randint(5, 30)}% today</a></li>"
    )


def generate(rng: Random) -> Generated:
    section, decoy_section = pools.unique(rng, feeds.section_name, 2)
    fmt = listing.price_style(rng)
    names = pools.unique(rng, pools.product_name, rng.randint(5, 12))
    style = rng.randrange(feeds.CARD_STYLES)
    entries = []
    for card in feeds.draw_cards(rng, names, fmt):
        html = feeds.card_html(card, style)
        if rng.random() < 0.35:
            html = html.removesuffix("</li>") + _nested(rng, names) + "</li>"
        entries.append(html)
    for _ in range(rng.randint(1, 3)):
        entries.insert(rng.randint(1, len(entries)), _not_an_item(rng, fmt))
    count = feeds.count_line(len(names), len(names)) if rng.random() < 0.5 else ""
    target = (
        f'<section class="listing" id="listing-{token(rng, 6)}"><h2 class="listing-title">'
        f"{escape(section)}</h2>{count}{feeds.list_html(entries)}</section>"
    )
    decoys = [
        (decoy_section, feeds.other_names(rng, names, rng.randint(3, 6))),
        (
            rng.choice(("Recently viewed", "Customers also viewed")),
            feeds.other_names(rng, names, 3),
        ),
    ]
    sections = [target] + [
        slot_tables.decoy_listing(rng, title, feeds.draw_cards(rng, others, fmt), style)
        for title, others in decoys
    ]
    rng.shuffle(sections)
    html = wrap_page(
        rng,
        title=section,
        main_html="\n".join(sections),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Shop", section.split(" ")[0]),
    )
    query = queries.item_list(section)
    return Generated(html=html, query=query.text, query_template=query.template, truth=names)


ARCHETYPE = ArchetypeSpec(
    id="item_list_nested",
    category=Category.LISTS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="Item names of one listing whose cards nest bundle/swatch sub-lists.",
    answer_schema=queries.ITEM_LIST_SCHEMA,
    generate=generate,
)
