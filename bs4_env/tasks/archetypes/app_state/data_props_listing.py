"""Every item of a listing whose full data sits in a component's props attribute.

Skill: reading JSON out of an HTML attribute (react-rails ``data-react-props``, a Vue
``:items`` binding, a generic ``data-props``): BeautifulSoup has already decoded the
entities (``&quot;``, ``&#39;``), so ``json.loads(tag["data-react-props"])`` works, while a
regex over the raw HTML sees ``&quot;``; then taking each item's own ``name``.
Shortcuts resisted: the shared ``item_list`` request (same wording, section names and
listing layout as ``js_rendered``, ``infinite_scroll`` and ``bot_wall``); the component
renders only its first few cards on the server ("Showing 4 of 13 items"), so answering the
visible cards misses the rest; another component on the page carries the props of a decoy
listing (matched only by its title); each item nests a ``seller`` with its own ``name``,
so collecting every ``name`` key recursively is wrong.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import app_state, feeds, pools, slot_tables
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, JSONValue


def _items(rng: Random, items: list[dict[str, str]]) -> list[dict[str, JSONValue]]:
    return [{**item, "seller": {"name": rng.choice(pools.COMPANIES)}} for item in items]


def _component(rng: Random, style: int, title: str, items: JSONValue, inner: str) -> str:
    """A component element with its props; ``inner`` is what the server rendered in it."""
    if style == 0:
        props = app_state.props_attribute(rng, "data-react-props", {"title": title, "items": items})
        return f'<div data-react-class="ProductGrid" {props}>{inner}</div>'
    if style == 1:
        props = app_state.props_attribute(rng, ":items", items)
        return f'<product-grid title="{escape(title)}" {props}>{inner}</product-grid>'
    props = app_state.props_attribute(rng, "data-props", {"title": title, "items": items})
    return f'<div class="js-component" data-component="listing" {props}>{inner}</div>'


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, "item_list", blocked=False)
    style = rng.randrange(3)
    cards = list(layout.cards)
    shown = rng.randint(3, min(6, len(cards) - 2))
    inner = (
        feeds.count_line(shown, len(cards))
        + feeds.list_html([feeds.card_html(c, layout.card_style) for c in cards[:shown]])
        + f'<button class="show-all" type="button">Show all {len(cards)} items</button>'
    )
    items = _items(rng, layout.state["listing"]["items"])
    slot = _component(rng, style, layout.name, items, inner)
    decoy = layout.decoy_state["listing"]
    carousel = _component(rng, style, decoy["title"], _items(rng, decoy["items"]), "")
    html = wrap_page(
        rng,
        title=layout.title,
        main_html=layout.main(rng, slot, [carousel]),
        difficulty=layout.chrome,
        breadcrumbs=layout.breadcrumbs,
        extra_head=layout.extra_head,
    )
    return Generated(
        html=html,
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="data_props_listing",
    category=Category.APP_STATE,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="All items of a listing from a component's JSON props attribute.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
