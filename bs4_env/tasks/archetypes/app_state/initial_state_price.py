"""The featured product's price, held only in a ``window.__INITIAL_STATE__`` Redux store.

Skill: finding the script that assigns ``window.__INITIAL_STATE__``, cutting the JSON
value out of JavaScript (``json.JSONDecoder().raw_decode`` from the ``{`` after the ``=``,
or decoding the string literal passed to ``JSON.parse`` and then its JSON), and walking a
normalized store (``entities.products.byId``) to the product with the requested name.
Shortcuts resisted: the shared ``featured_price`` request on the same product-page layout
as its limitation twins (``js_rendered``, ``canvas_text``): the price box holds an empty
mount classed ``price current`` showing "…", so "first ``.price.current``" is wrong and
"a mount means abstain" scores 0; the script never holds only the assignment (other
assignments follow or precede it, or the state is a JSON string inside ``JSON.parse``),
so ``split("=")`` plus ``json.loads`` fails; the store holds the old price (``was``) and
related products' prices, the page shows related and "recently viewed" prices (one for
the same name, stale), and a hidden variant price.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import app_state, mounts, slot_pages, slot_tables
from bs4_env.tasks.html.metadata_pools import slug
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, JSONValue
from bs4_env.tasks.rng import token


def _entry(rng: Random, name: str, current: str, was: str | None) -> dict[str, JSONValue]:
    price: dict[str, JSONValue] = {"current": {"formatted": current}}
    if was is not None:
        price["was"] = {"formatted": was}
    return {
        "id": f"p_{token(rng, 8)}",
        "name": name,
        "slug": slug(name),
        "price": price,
        "inStock": rng.random() < 0.8,
    }


def _store(rng: Random, product: JSONValue, related: JSONValue) -> dict[str, JSONValue]:
    featured = _entry(rng, product["name"], product["price"]["current"], product["price"]["was"])
    others = [_entry(rng, r["name"], r["price"]["current"], None) for r in related]
    entries = [featured, *others]
    rng.shuffle(entries)
    return {
        "session": {"locale": "en", "token": None},
        "entities": {
            "products": {
                "byId": {e["id"]: e for e in entries},
                "allIds": [e["id"] for e in entries],
            }
        },
        "pdp": {"featuredId": featured["id"], "relatedIds": [e["id"] for e in others]},
        "cart": {"items": [], "count": 0},
    }


def generate(rng: Random) -> Generated:
    layout = slot_tables.build(rng, "featured_price", blocked=False)
    state = _store(rng, layout.state["product"], layout.decoy_state["related"])
    mount = mounts.mount(rng, layout.subject)
    slot = mount.node(None) + mounts.noscript(layout.subject)
    blob = app_state.initial_state_script(rng, state)
    return Generated(
        html=slot_pages.mounted_page(rng, layout, mount, slot, [blob]),
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="initial_state_price",
    category=Category.APP_STATE,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="Featured price from a window.__INITIAL_STATE__ store inside a larger script.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
