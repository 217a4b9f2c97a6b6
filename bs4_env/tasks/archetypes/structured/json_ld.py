"""A value from the page's JSON-LD structured data (``<script type="application/ld+json">``).

Skill: finding the right ``application/ld+json`` script, ``json.loads`` on its ``.string``,
walking ``@graph``/nested objects and picking the entity by name/type.
Shortcuts resisted: the visible page shows an outdated value (old price, old SKU, the
originally planned date/venue) and stale microdata ``<meta itemprop>`` tags; a second
entity (related product, sister store) sits in another block or in the same ``@graph``
with its own value; press-office and fax numbers surround the store's phone; JSON is
minified or indented, sometimes ``\\u``-escaped. Every request states its string format
and names the JSON-LD as its source (the store phone is never displayed, only behind a
"Call us" button).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import articles, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

Entity = dict[str, object]
Built = tuple[str, list[Entity], queries.Query, str, str]  # main, entities, query, truth, title
_CTX = "https://schema.org"
_LD = "the page's JSON-LD structured data"
_LD_SCHEMA = (
    "a string, the value exactly as written in the JSON-LD (in the format the request gives)"
)


def _ld_query(text: str) -> queries.Query:
    return queries.Query(template="json_ld_field", text=text, answer_schema=_LD_SCHEMA)


_TOPICS = ("Jazz", "Design", "Data", "Film", "Food", "Poetry", "Robotics", "Folk", "Chess", "Wine")
_EVENTS = ("Festival", "Night", "Summit", "Meetup", "Workshop", "Concert", "Expo", "Forum")
_VENUES = ("{} Concert Hall", "Théâtre {}", "Salle {}", "Sala {}", "{} Arena", "Café {}")
_SECTIONS = ("Audio", "Furniture", "Kitchen", "Outdoor", "Office", "Travel", "Garden", "Toys")


def _contact(rng: Random) -> Built:
    store, other = pools.unique(rng, articles.store_name, 2)
    street, other_street = pools.unique(rng, articles.street_address, 2)
    phone, fax, other_phone, press = pools.unique(rng, articles.phone_number, 4)
    entities = [
        articles.store_ld(store, street, phone, fax if rng.random() < 0.6 else None),
        articles.store_ld(other, other_street, other_phone),
    ]
    callback = f'<a class="btn call" href="/contact/callback?s={token(rng, 5)}">Call us</a>'
    main = articles.contact_section(rng, store, street, callback, press)
    main += articles.branch_section(other, other_street)
    # The number is not displayed (only a "Call us" button is), so the request names the
    # JSON-LD as the source instead of asking for the number "as displayed".
    query = (
        f'According to {_LD}, what is the telephone number of the store "{store}"? Answer with '
        'its telephone value exactly as written there (e.g. "+1 555 010 2233").'
    )
    return main, entities, _ld_query(query), phone, f"Contact {store}"


def _product(rng: Random, field: str) -> Built:
    name, related = pools.unique(rng, pools.product_name, 2)
    price, old_price, rel_price = (f"{rng.randint(5, 900)}.{rng.randint(0, 99):02d}" for _ in "abc")
    sku, old_sku, rel_sku = pools.unique(rng, pools.sku, 3)

    def product(title: str, value: str, code: str) -> Entity:
        offer = {"@type": "Offer", "price": value, "priceCurrency": "USD"}
        offer["availability"] = "https://schema.org/InStock"
        brand = {"@type": "Brand", "name": rng.choice(pools.COMPANIES)}
        return {
            "@context": _CTX,
            "@type": "Product",
            "name": title,
            "sku": code,
            "brand": brand,
            "offers": offer,
        }

    main = (
        f'<article class="product" itemscope itemtype="https://schema.org/Product">'
        f'<h1 itemprop="name">{escape(name)}</h1><meta itemprop="sku" content="{old_sku}">'
        f'<meta itemprop="price" content="{old_price}"><p class="price">${old_price}</p>'
        f'<p class="item-no">Item no. {old_sku}</p><p>{escape(pools.sentence(rng, 12))}</p>'
        f'</article><aside class="related"><h2>Customers also bought</h2>'
        f"<p>{escape(related)} <span>${rel_price}</span></p></aside>"
    )
    entities = [product(name, price, sku), product(related, rel_price, rel_sku)]
    if field == "price":
        query = (
            f'According to {_LD}, what is the offer price of "{name}"? Answer with the price '
            'value exactly as written there, without a currency sign (e.g. "1249.00").'
        )
        return main, entities, _ld_query(query), price, name
    query = (
        f'What SKU does {_LD} give for "{name}"? Answer with the SKU string exactly as '
        'written there (e.g. "SKU-00042").'
    )
    return main, entities, _ld_query(query), sku, name


def _event(rng: Random, field: str) -> Built:
    names = pools.unique(rng, lambda r: f"{r.choice(pools.ADJECTIVES)} {r.choice(_TOPICS)}", 2)
    year = rng.randint(2019, 2027)
    titles = [f"{n} {rng.choice(_EVENTS)} {year}" for n in names]

    def when(r: Random) -> str:
        day = f"{year}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"
        return f"{day}T{r.randint(9, 21):02d}:{r.choice(('00', '15', '30', '45'))}"

    def venue(r: Random) -> str:
        return r.choice(_VENUES).format(r.choice((*pools.CITIES, *pools.LAST_NAMES)))

    start, old_start, other_start = pools.unique(rng, when, 3)
    place, old_place, other_place = pools.unique(rng, venue, 3)
    entities: list[Entity] = [
        {
            "@context": _CTX,
            "@type": "Event",
            "name": title,
            "startDate": day,
            "location": {"@type": "Place", "name": where},
        }
        for title, day, where in ((titles[0], start, place), (titles[1], other_start, other_place))
    ]
    main = (
        f'<article class="event"><h1>{escape(titles[0])}</h1><p class="notice">Rescheduled: '
        f"originally planned for {old_start.replace('T', ' ')} at {escape(old_place)}.</p>"
        f"<p>{escape(pools.sentence(rng, 14))}</p></article><aside><h2>Next up</h2>"
        f"<p>{escape(titles[1])} · {escape(other_place)}</p></aside>"
    )
    if field == "start":
        query = (
            f'According to {_LD}, when does "{titles[0]}" start? Answer with the startDate value '
            'exactly as written there (ISO 8601, e.g. "2024-01-31T18:00").'
        )
        return main, entities, _ld_query(query), start, titles[0]
    query = (
        f'According to {_LD}, what is the name of the venue (location) of "{titles[0]}"? Answer '
        "with the venue name as a plain string."
    )
    return main, entities, _ld_query(query), place, titles[0]


def _breadcrumbs(rng: Random) -> Built:
    trail = ["Home", *rng.sample(_SECTIONS, rng.randint(2, 3))]
    domain = f"{rng.choice(pools.COMPANIES).split()[0].lower()}-{token(rng, 4)}.example"
    urls = [f"https://{domain}/{name.lower()}-{token(rng, 6)}/" for name in trail]
    items = [
        {"@type": "ListItem", "position": i + 1, "name": name, "item": url}
        for i, (name, url) in enumerate(zip(trail, urls, strict=True))
    ]
    product = pools.product_name(rng)
    entities: list[Entity] = [
        {"@context": _CTX, "@type": "BreadcrumbList", "itemListElement": items},
        {"@context": _CTX, "@type": "Product", "name": product, "url": f"https://{domain}/p/"},
    ]
    k = rng.randint(1, len(trail) - 1)
    # The visible trail links the same names to other (relative, tracking) URLs.
    visible = "".join(
        f'<li><a href="/{name.lower()}?ref={token(rng, 4)}">{name}</a></li>' for name in trail
    )
    main = (
        f'<nav class="crumbs"><ol>{visible}</ol></nav><h1>{escape(product)}</h1>'
        f"<p>{escape(pools.sentence(rng, 12))}</p>"
    )
    query = (
        f"In {_LD}, the breadcrumb trail (BreadcrumbList) links the item "
        f'"{trail[k]}" to which URL? Answer with the full URL exactly as written there.'
    )
    return main, entities, _ld_query(query), urls[k], product


_VARIANTS: tuple[Callable[[Random], Built], ...] = (
    _contact,
    _contact,
    lambda r: _product(r, "price"),
    lambda r: _product(r, "sku"),
    lambda r: _event(r, "start"),
    lambda r: _event(r, "venue"),
    _breadcrumbs,
)


def generate(rng: Random) -> Generated:
    main, entities, query, truth, title = rng.choice(_VARIANTS)(rng)
    rng.shuffle(entities)
    scripts = articles.ld_scripts(rng, entities)
    in_head = rng.randint(0, len(scripts))
    html = wrap_page(
        rng,
        title=title,
        main_html=main + "".join(scripts[in_head:]),
        difficulty=ARCHETYPE.difficulty,
        extra_head="\n".join(scripts[:in_head]),
    )
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        truth=truth,
        answer_schema=query.answer_schema,
    )


ARCHETYPE = ArchetypeSpec(
    id="json_ld",
    category=Category.STRUCTURED,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=7,
    phase="phase2",
    description="A field of a named entity in JSON-LD, with stale visible and microdata values.",
    # Each request carries its own answer shape.
    answer_schema="a string, in the format the request gives",
    generate=generate,
)
