"""Items whose class list contains two given classes (``class`` is multi-valued).

Skill: BeautifulSoup stores ``class`` as a list, so ``tag["class"] == "card"`` never matches;
the right tools are ``"card" in tag.get("class", [])``, ``find_all(class_="card")`` plus a
membership test, or a compound CSS selector ``select(".card.is-featured-x")``.
Shortcuts resisted: decoys carry ``card-featured``, a bare ``featured``, the campaign class
without ``card``, ``card`` with another campaign's class, and a campaign class with an extra
suffix (so substring/regex matching over the attribute fails); class order and the
whitespace inside the attribute vary; names come from a large combinatorial pool.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, Normalization
from bs4_env.tasks.rng import token

_CAMPAIGNS = ("spring", "summer", "autumn", "winter", "launch", "clearance", "holiday", "weekend")
_EXTRA = ("shadow", "rounded", "lazy", "grid-item", "col-6", "col-md-4", "js-track", "theme-dark")
_GAPS = (" ", "  ", " \n  ", "\t", "   ")


def _class_attr(rng: Random, classes: list[str]) -> str:
    """The class attribute as messy real templates render it: shuffled, uneven whitespace."""
    classes = classes + rng.sample(_EXTRA, rng.randint(0, 2))
    rng.shuffle(classes)
    text = classes[0]
    for name in classes[1:]:
        text += rng.choice(_GAPS) + name
    return rng.choice(("", " ", "  ")) + text + rng.choice(("", " ", "\n"))


def generate(rng: Random) -> Generated:
    campaign = f"{rng.choice(_CAMPAIGNS)}-{token(rng, 4)}"
    featured = f"is-featured-{campaign}"
    other = f"is-featured-{rng.choice(_CAMPAIGNS)}-{token(rng, 4)}"
    n_target = rng.randint(2, 5)
    decoy_kinds = [
        ["card-featured", featured.replace("is-featured", "was-featured")],
        ["card", "featured"],
        ["tile", featured],
        ["card", other],
        ["card", f"{featured}-old"],
        ["card-featured", featured],
        ["card"],
        ["cards", featured],
    ]
    decoys = rng.sample(decoy_kinds, rng.randint(4, 7))
    names = pools.unique(rng, pools.product_name, n_target + len(decoys))
    items: list[tuple[list[str], str, bool]] = [
        (["card", featured], name, True) for name in names[:n_target]
    ]
    items += [
        (classes, name, False) for classes, name in zip(decoys, names[n_target:], strict=True)
    ]
    rng.shuffle(items)
    cards = "\n".join(
        f'<li class="{_class_attr(rng, classes)}" data-sku="{pools.sku(rng)}">'
        f'<img src="/img/p/{token(rng, 8)}.jpg" alt="">'
        f'<h3 class="card-title">{escape(name)}</h3>'
        f'<span class="price">{pools.price(rng)}</span>'
        f'<p class="blurb">{escape(pools.sentence(rng, rng.randint(5, 9)))}</p></li>'
        for classes, name, _ in items
    )
    truth = [name for _, name, is_target in items if is_target]
    main = (
        f"<h1>{escape(campaign.split('-')[0].capitalize())} collection</h1>"
        f'<ul class="product-grid">\n{cards}\n</ul>'
    )
    html = wrap_page(rng, title="Collection", main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f"List the product names (the card titles) of every element whose class list contains "
        f'both "card" and "{featured}", in page order.'
    )
    return Generated(html=html, query=query, query_template="multi_valued_class", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="multi_valued_class",
    category=Category.GOTCHAS,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=6,
    description="Elements carrying two given classes among near-miss class decoys.",
    answer_schema="a list of strings, the card titles in document order",
    generate=generate,
    normalization=Normalization(),
)
