"""Product listings for the shared ``item_list`` request: section names, cards, feed triggers.

Every ``item_list`` page of the limitation family (infinite scroll, JS mounts, bot checks)
and of its solvable twins draws its section names and item cards from here, so the request
wording and the card markup never tell which kind of page it is. A listing often shows only
its first items; whether the rest is already in the HTML (hidden, or in a JSON blob) or
arrives by XHR is said by the feed's trigger and script, built here for both cases.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.html import listing, pools
from bs4_env.tasks.rng import TOKEN_TRIPLES, sample, token

_TOPICS = (
    "Audio",
    "Kitchen",
    "Outdoor",
    "Office",
    "Travel",
    "Garden",
    "Fitness",
    "Gaming",
    "Home office",
    "Camping",
    "Photography",
    "Coffee",
    "Cycling",
    "Smart home",
)
_KINDS = (
    "bestsellers",
    "new arrivals",
    "staff picks",
    "deals",
    "essentials",
    "top rated",
    "clearance",
    "gift ideas",
    "just restocked",
    "trending now",
)


def section_name(rng: Random) -> str:
    """A listing's title, e.g. "Kitchen staff picks"."""
    return f"{rng.choice(_TOPICS)} {rng.choice(_KINDS)}"


@dataclass(frozen=True)
class Card:
    """One listed item: its display name and price, and the identifiers of its card."""

    name: str
    price: str
    href: str
    item_id: int
    thumb: str


_ITEM_IDS = (100_000, 9_999_999)
_ITEM_ID_COUNT = _ITEM_IDS[1] - _ITEM_IDS[0] + 1
_ITEM_ID_BITS = _ITEM_ID_COUNT.bit_length()


def card_draws(rng: Random, count: int) -> list[tuple[int, int, int, int]]:
    """Every draw of ``count`` cards of one list, in order: per card its price in cents, its
    link's 40 random bits, its item id and its thumbnail's 40 random bits (``card`` makes a
    card of them). A copy of a listing shows only its first cards: the rest are drawn all
    the same, and only the shown ones built."""
    # Every page carries copies of listings (``blocker_copies``), so cards are drawn by the
    # ten thousand: ``token(rng, 8)`` (``getrandbits(40)``) and ``rng.randint`` are written
    # out as the same draws read the same way (``rng.between``).
    getrandbits = rng.getrandbits
    draws = []
    taken: set[int] = set()
    for _ in range(count):
        price = listing.cents(rng)
        link = getrandbits(40)
        item_id = getrandbits(_ITEM_ID_BITS)
        while item_id >= _ITEM_ID_COUNT:
            item_id = getrandbits(_ITEM_ID_BITS)
        item_id += _ITEM_IDS[0]
        # Two cards of one list never share an id (a shared id marks a copy of one record).
        # A clash moves to the next free id without a new draw, so every list without one
        # keeps its bytes.
        while item_id in taken:
            item_id += 1
        taken.add(item_id)
        draws.append((price, link, item_id, getrandbits(40)))
    return draws


def card(name: str, fmt: listing.PriceFormat, draws: tuple[int, int, int, int]) -> Card:
    """The card of ``name`` made of its draws (``card_draws``), its price shown by ``fmt``."""
    price, link, item_id, thumb = draws
    triples = TOKEN_TRIPLES
    slug = triples[link & 0x7FFF] + triples[(link >> 15) & 0x7FFF] + triples[link >> 30][:2]
    image = triples[thumb & 0x7FFF] + triples[(thumb >> 15) & 0x7FFF] + triples[thumb >> 30][:2]
    return Card(name, fmt(price), f"/p/{slug}", item_id, f"/media/thumbs/{image}.jpg")


def draw_cards(rng: Random, names: Sequence[str], fmt: listing.PriceFormat) -> list[Card]:
    """A card for each of ``names``, in order."""
    return [card(name, fmt, d) for name, d in zip(names, card_draws(rng, len(names)), strict=True)]


CARD_STYLES = 3


def card_html(card: Card, style: int, extra: str = "") -> str:
    """A listing card; ``extra`` is added to the ``<li>``'s attributes (e.g. ``hidden``)."""
    attrs = f' data-id="{card.item_id}"' + (f" {extra}" if extra else "")
    name, price = escape(card.name), escape(card.price)
    if style == 0:
        return (
            f'<li class="item"{attrs}><a class="item-name" href="{card.href}">{name}</a> '
            f'<span class="price">{price}</span></li>'
        )
    if style == 1:
        return (
            f'<li class="item card"{attrs}><img src="{card.thumb}" alt="" loading="lazy">'
            f'<h3 class="item-name"><a href="{card.href}">{name}</a></h3>'
            f'<p class="price">{price}</p></li>'
        )
    return (
        f'<li class="item"{attrs}><span class="item-name">{name}</span> '
        f'<small class="price">{price}</small></li>'
    )


def list_html(cards: Sequence[str], list_id: str | None = None) -> str:
    id_attr = f' id="{list_id}"' if list_id else ""
    return f'<ul class="items"{id_attr}>{"".join(cards)}</ul>'


def count_line(shown: int, total: int) -> str:
    if shown == total:
        return f'<p class="result-count">{total} items</p>'
    return f'<p class="result-count">Showing {shown} of {total} items</p>'


def skeletons(rng: Random) -> list[str]:
    """Empty placeholder cards a feed shows while loading (sometimes none)."""
    count = rng.randint(1, 3) if rng.random() < 0.5 else 0
    return ['<li class="item skeleton" aria-hidden="true"></li>'] * count


def state_items(cards: Sequence[Card]) -> list[dict[str, str]]:
    return [{"name": c.name, "price": c.price, "url": c.href} for c in cards]


@dataclass(frozen=True)
class Trigger:
    """What loads more items: a scroll sentinel or a button, and the script it runs."""

    element_id: str
    html: str
    script: str


# One loader for every feed, as a site ships one: it shows the listing's hidden pages if the
# HTML holds them, else the items of the listing's JSON blob (``<list id>-data``) after the
# ones already shown, else it fetches the trigger's next page. Placeholder (skeleton) cards
# are not items: they are neither counted nor kept. So what the script would do is decided
# by the page's data alone, and its vocabulary is the same on every feed page.
_LOADER = (
    'function card(i){return \'<li class="item"><span class="item-name">\'+i.name+'
    "'</span> <small class=\"price\">'+i.price+'</small></li>';}"
    "function add(items){l.querySelectorAll('.skeleton').forEach(function(s){s.remove();});"
    "l.insertAdjacentHTML('beforeend',items.map(card).join(''));}"
    "function done(){t.dataset.nextPage='';t.hidden=true;"
    "var e=l.parentNode.querySelector('.end-of-list');if(e){e.hidden=false;}}"
    "function more(){"
    "var h=[].filter.call(l.parentNode.querySelectorAll('.items'),function(e){return e!==l;});"
    "if(h.length){h.forEach(function(e){e.hidden=false;e.removeAttribute('aria-hidden');"
    "e.parentNode.style.display='';});return done();}"
    "var b=document.getElementById(l.id+'-data');"
    "if(b){var shown=l.querySelectorAll('.item:not(.skeleton)').length;"
    "add(JSON.parse(b.textContent).listing.items.slice(shown));return done();}"
    "fetch(t.dataset.nextPage).then(function(r){return r.json();}).then(function(d){"
    "add(d.items);if(d.next){t.dataset.nextPage=d.next;}else{done();}});}"
)


# How a site hides what is not shown yet; one way per page, for everything hidden in the
# listing (its collapsed sort menu, and on ``load_more_static`` its second page of cards).
HIDING = (
    '<ul class="{}" hidden>{}</ul>',
    '<div style="display:none"><ul class="{}">{}</ul></div>',
    '<ul class="{}" aria-hidden="true" hidden>{}</ul>',
)
_SORTS = ("Featured", "Newest", "Price: low to high", "Price: high to low", "Top rated")


def hidden_list(hiding: int, klass: str, items: str) -> str:
    """A list of class ``klass`` hidden the ``hiding``-th way of ``HIDING``."""
    return HIDING[hiding].format(klass, items)


def first_screen(
    rng: Random,
    cards: Sequence[Card],
    style: int,
    shown: int,
    list_id: str,
    hiding: int,
    trigger: Trigger,
    after_list: str = "",
    *,
    total: int | None = None,
) -> str:
    """A feed's first screen: count line, collapsed sort menu, the first ``shown`` cards
    (and skeletons), ``after_list``, then the trigger and its loader. ``total`` is how many
    items the list has (``len(cards)`` if None: ``cards`` may then hold only the shown).

    A third of feeds, of every kind, carry the hidden line the loader shows at the end.
    """
    options = "".join(
        f'<li><a href="?sort={token(rng, 4)}">{name}</a></li>'
        for name in sample(rng, _SORTS, rng.randint(3, 5))
    )
    end = '<p class="end-of-list" hidden>You have seen all items.</p>'
    return (
        count_line(shown, len(cards) if total is None else total)
        + hidden_list(hiding, "sort-options", options)
        + list_html([card_html(card, style) for card in cards[:shown]] + skeletons(rng), list_id)
        + after_list
        + (end if rng.random() < 1 / 3 else "")
        + trigger.html
        + trigger.script
    )


def blob_id(list_id: str) -> str:
    """The id of the JSON blob the loader reads for the list ``list_id``."""
    return f"{list_id}-data"


def trigger(rng: Random, list_id: str, next_page: str) -> Trigger:
    """A sentinel or "Load more" button for the list ``list_id``, and its loader script.

    ``next_page`` is the endpoint the loader fetches when the page holds no more items; it
    is there on every feed (sites keep it whether or not the first load needs it).
    """
    if rng.random() < 0.5:
        element_id = f"sentinel-{token(rng, 7)}"
        html = (
            f'<div id="{element_id}" class="scroll-sentinel" data-next-page="{next_page}" '
            'aria-hidden="true"></div>'
        )
        watch = (
            "new IntersectionObserver(function(e){if(e[0].isIntersecting){more();}}).observe(t);"
        )
    else:
        element_id = f"more-{token(rng, 7)}"
        html = (
            f'<button id="{element_id}" class="load-more" type="button" '
            f'data-next-page="{next_page}" aria-controls="{list_id}">Load more</button>'
        )
        watch = "t.addEventListener('click',more);"
    script = (
        f"<script>(function(){{var t=document.getElementById('{element_id}'),"
        f"l=document.getElementById('{list_id}');{_LOADER}{watch}}})();</script>"
    )
    return Trigger(element_id, html, script)


def next_page_url(rng: Random) -> str:
    """A cursor endpoint for a listing's next page."""
    return f"/api/listings/{token(rng, 10)}?cursor={token(rng, 12)}"


def json_blob(rng: Random, data: object, blob_id: str) -> str:
    """Data embedded in the page as a JSON script element (``</`` escaped like real sites)."""
    text = json.dumps(data, ensure_ascii=rng.random() < 0.5).replace("</", "<\\/")
    return f'<script type="application/json" id="{blob_id}">{text}</script>'


def other_names(rng: Random, exclude: Sequence[str], n: int) -> list[str]:
    """``n`` product names distinct from each other and from ``exclude``."""
    names = pools.unique(rng, pools.product_name, n + len(exclude))
    return [name for name in names if name not in exclude][:n]
