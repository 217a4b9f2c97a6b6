"""Labels of the direct ``<li>`` children of one menu list, not of its nested sub-menus.

Skill: ``ul.find_all("li", recursive=False)`` (or the CSS child combinator ``> li``) and
reading each item's own link or toggle button rather than its whole ``get_text()``.
Shortcuts resisted: sub-menu items carry the same ``menu-item`` class and nest up to two
levels deep, so ``select("li.menu-item")`` or ``find_all("li")`` over-counts and
``li.get_text()`` swallows the sub-items; a "popular" list with a similar class and
overlapping labels and a hidden mobile copy in another order sit on the same page.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_CATEGORIES = (
    "Audio",
    "Bags & Travel",
    "Bath",
    "Bedding",
    "Bikes",
    "Cameras",
    "Camping",
    "Coffee & Tea",
    "Computers",
    "Cookware",
    "Crafts",
    "Fitness",
    "Footwear",
    "Furniture",
    "Gaming",
    "Garden",
    "Grocery",
    "Home Office",
    "Kids",
    "Kitchen",
    "Lighting",
    "Luggage",
    "Music",
    "Outdoor",
    "Pet Supplies",
    "Phones",
    "Smart Home",
    "Sports",
    "Storage",
    "Tools",
    "Toys",
    "TV & Video",
    "Watches",
    "Wearables",
    "Winter Gear",
)
_MENU_NAMES = ("Shop by department", "All categories", "Browse the store", "Product catalogue")
_DECOY_NAMES = ("Popular right now", "Trending categories", "Top picks")


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in label.lower()).strip("-")


def _plural(noun: str) -> str:
    if noun.endswith("s"):
        return noun
    return noun + ("es" if noun.endswith(("ch", "sh", "x")) else "s")


def _sub_menu(rng: Random, depth: int) -> str:
    items = []
    for _ in range(rng.randint(2, 4)):
        label = f"{rng.choice(pools.ADJECTIVES)} {_plural(rng.choice(pools.NOUNS))}"
        deeper = _sub_menu(rng, depth + 1) if depth < 2 and rng.random() < 0.3 else ""
        items.append(
            f'<li class="menu-item"><a href="/c/{token(rng, 5)}">{escape(label)}</a>{deeper}</li>'
        )
    return f'<ul class="sub-menu depth-{depth}">{"".join(items)}</ul>'


def _top_item(rng: Random, label: str, nested: bool) -> str:
    head = (
        f'<button class="menu-toggle" aria-expanded="false">{escape(label)}</button>'
        if nested and rng.random() < 0.35
        else f'<a href="/c/{_slug(label)}">{escape(label)}</a>'
    )
    badge = ' <span class="badge">New</span>' if rng.random() < 0.15 else ""
    sub = _sub_menu(rng, 1) if nested else ""
    cls = "menu-item has-children" if nested else "menu-item"
    return f'<li class="{cls}">\n  {head}{badge}\n  {sub}\n</li>'


def _menu(rng: Random, labels: list[str], ul_attrs: str) -> str:
    items = "\n".join(_top_item(rng, label, rng.random() < 0.6) for label in labels)
    return f"<ul {ul_attrs}>\n{items}\n</ul>"


def generate(rng: Random) -> Generated:
    labels = rng.sample(_CATEGORIES, rng.randint(4, 8))
    name, decoy_name = rng.choice(_MENU_NAMES), rng.choice(_DECOY_NAMES)
    menu_id = f"menu-{token(rng, 5)}"
    target = (
        f'<nav class="category-nav" aria-label="{name}"><h2 class="nav-title">{name}</h2>'
        + _menu(rng, labels, f'id="{menu_id}" class="menu menu--main"')
        + "</nav>"
    )
    popular = rng.sample(labels, 2) + rng.sample([c for c in _CATEGORIES if c not in labels], 2)
    rng.shuffle(popular)
    decoy = (
        f'<section class="popular"><h2>{decoy_name}</h2>'
        + _menu(rng, popular, f'id="menu-{token(rng, 5)}" class="menu menu--compact"')
        + "</section>"
    )
    mobile_labels = labels[:]
    rng.shuffle(mobile_labels)
    mobile = (
        '<div class="mobile-drawer" hidden>'
        + _menu(rng, mobile_labels[1:], f'id="{menu_id}-m" class="menu menu--mobile"')
        + "</div>"
    )
    blocks = [decoy, f"<p>{escape(pools.sentence(rng, 12))}</p>"]
    rng.shuffle(blocks)
    main = mobile + target + "".join(blocks)
    where = (
        f'the menu list with id "{menu_id}"'
        if rng.random() < 0.5
        else f'the "{name}" navigation menu'
    )
    query = (
        f"List the top-level categories of {where}, in order: for each direct <li> child of "
        "that list, the text of its own link or toggle button (trimmed, without badges). Do not "
        "include sub-categories from nested lists."
    )
    html = wrap_page(rng, title=name, main_html=main, difficulty=ARCHETYPE.difficulty)
    return Generated(html=html, query=query, query_template="direct_children", truth=labels)


ARCHETYPE = ArchetypeSpec(
    id="direct_children",
    category=Category.TRAVERSAL,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    description="Labels of the direct li children of a menu with nested sub-menus and look-alikes.",
    answer_schema="a list of strings, the top-level item labels in document order",
    generate=generate,
)
