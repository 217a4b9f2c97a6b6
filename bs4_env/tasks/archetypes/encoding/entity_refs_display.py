"""A name or alt text written with character references, some of them escaped twice.

Skill: trusting BeautifulSoup to decode character references exactly once, in text and in
attributes: ``&eacute;``, ``&#233;`` and ``&#xE9;`` all read "é", ``&amp;`` reads "&", and
a double-escaped ``&amp;eacute;`` reads (and displays) literally "&eacute;"; the card is
found by its item number.
Shortcuts resisted: the requested value always has at least one reference, so a regex over
the raw HTML returns the references, not the text; on most pages it also holds a
double-escaped reference, so running ``html.unescape`` on the already-decoded text (a
common reflex) decodes it a second time and answers "é" where the page shows "&eacute;";
``str(tag)`` and ``decode_contents()`` re-escape "&" as "&amp;"; the other cards use the
same words and spellings.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import encoding_pools, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_SPECIAL = "&<>"


def _spell(rng: Random, text: str, double: bool) -> tuple[str, str]:
    """(html, displayed) for ``text``: references for accents and "&", one escaped twice.

    At least one character is written as a reference; with ``double``, one reference is
    escaped twice and so displays literally.
    """
    spots = [i for i, ch in enumerate(text) if ord(ch) > 127 or ch in _SPECIAL]
    as_ref = {i for i in spots if rng.random() < 0.6} or {rng.choice(spots)}
    twice = rng.choice(sorted(as_ref)) if double else -1
    html, shown = [], []
    for index, ch in enumerate(text):
        if index == twice:
            ref = encoding_pools.reference(rng, ch)
            html.append("&amp;" + ref[1:])
            shown.append(ref)
        elif index in as_ref:
            html.append(encoding_pools.reference(rng, ch))
            shown.append(ch)
        else:
            html.append(escape(ch, quote=True))
            shown.append(ch)
    return "".join(html), "".join(shown)


def _card(
    rng: Random, name: str, alt: str, sku: str, target: bool, double: bool
) -> tuple[str, str, str]:
    """(card html, displayed name, alt as read) of one card."""
    name_html, name_shown = _spell(rng, name, double and target)
    alt_html, alt_read = _spell(rng, alt, double and target)
    card = (
        f'<div class="menu-item" id="item-{token(rng, 6)}"><img src="/media/{token(rng, 8)}.jpg" '
        f'alt="{alt_html}"><h3 class="title">{name_html}</h3>'
        f'<p class="item-no">Item no. {sku}</p><p>{escape(pools.sentence(rng, 8))}</p></div>'
    )
    return card, name_shown, alt_read


def generate(rng: Random) -> Generated:
    names = pools.unique(rng, encoding_pools.entity_name, rng.randint(3, 6))
    skus = pools.unique(rng, pools.sku, len(names))
    target = rng.randrange(len(names))
    double = rng.random() < 0.7
    cards = []
    shown = read = ""
    for index, (name, sku) in enumerate(zip(names, skus, strict=True)):
        alt = f"{name}, served {rng.choice(('warm', 'chilled', 'on ice', 'à la carte'))}"
        card, name_shown, alt_read = _card(rng, name, alt, sku, index == target, double)
        cards.append(card)
        if index == target:
            shown, read = name_shown, alt_read
    venue = f"{rng.choice(pools.COMPANIES)} {rng.choice(('Bistro', 'Deli', 'Bakery', 'Café'))}"
    main = (
        f"<h1>{escape(venue)}: menu</h1><p>{escape(pools.sentence(rng, 10))}</p>"
        f'<div class="menu">{"".join(cards)}</div>'
    )
    html = wrap_page(rng, title=f"{venue} menu", main_html=main, difficulty=ARCHETYPE.difficulty)
    sku = skus[target]
    if rng.random() < 0.5:
        query = (
            f'What name does the card with item number "{sku}" show? Answer exactly as the page '
            "displays it: a character reference that the page shows literally stays literal."
        )
        return Generated(html=html, query=query, query_template="entity_display_text", truth=shown)
    query = (
        f'What is the alt text of the image on the card with item number "{sku}"? Answer with '
        "the attribute value as a browser reads it (character references decoded once)."
    )
    return Generated(html=html, query=query, query_template="entity_attribute_value", truth=read)


ARCHETYPE = ArchetypeSpec(
    id="entity_refs_display",
    category=Category.ENCODING,
    difficulty=Difficulty.HARD,
    solvable=True,
    version=5,
    phase="phase2",
    description="Name or alt text written with entities, one escaped twice (&amp;eacute;).",
    answer_schema=(
        'a string, the text as the browser shows or reads it (e.g. "Café & Crème", or '
        '"Caf&eacute; & Crème" where the page itself shows "&eacute;")'
    ),
    generate=generate,
)
