"""The real destination of one "Buy at ..." link: percent-encoded in a redirect's query, or
base64-encoded in a data attribute.

Skill: decoding URL data with the stdlib: ``urllib.parse.urlsplit`` + ``parse_qs`` (which
percent-decodes once) on the ``href`` BeautifulSoup has already entity-decoded, or
``base64.b64decode(tag["data-dest"]).decode()``; the link is found from the product's
heading and the merchant named in the request.
Shortcuts resisted: the destination usually carries percent-escapes of its own (a search
phrase ``%20``, an encoded slash), so decoding twice (``unquote(unquote(...))``) answers
wrongly; the redirect's parameters come in either order and the raw HTML writes the
separator as ``&amp;``, so a regex like ``[?&]u=`` over the raw markup misses it; every
merchant link on the page uses the same scheme, a related product lists the same merchant,
and links carry a base64 tracking blob beside the destination.
"""

from __future__ import annotations

import base64
import json
from html import escape
from random import Random
from urllib.parse import quote

from bs4_env.tasks.html import listing, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_SUFFIXES = ("Outlet", "Market", "Direct", "Store", "Depot")
_SEARCHES = ("red kettle", "usb c cable", "50/50 blend", "gift set", "spare parts", "size 10")


def _slug(text: str) -> str:
    words = ("".join(ch for ch in word if ch.isalnum()) for word in text.lower().split())
    return "-".join(word for word in words if word)


def _destination(rng: Random, merchant: str, product: str) -> str:
    host = f"{_slug(merchant)}-{token(rng, 3)}.example"
    url = f"https://{host}/p/{_slug(product)}-{token(rng, 5)}?ref={token(rng, 6)}"
    if rng.random() < 0.8:  # an already-encoded query value of the merchant's own
        url += f"&q={quote(rng.choice(_SEARCHES), safe='')}"
    return url


def _link(rng: Random, merchant: str, destination: str, base64_style: bool) -> str:
    tracking = base64.b64encode(json.dumps({"m": merchant, "t": token(rng, 8)}).encode()).decode()
    if base64_style:
        encoded = base64.b64encode(destination.encode()).decode()
        return (
            f'<a class="buy" href="/out/{token(rng, 8)}" data-dest="{encoded}" '
            f'data-track="{tracking}">Buy at {escape(merchant)}</a>'
        )
    params = [f"u={quote(destination, safe='')}", f"src={token(rng, 5)}"]
    rng.shuffle(params)
    href = f"https://go.{token(rng, 4)}.example/r?{'&'.join(params)}"
    return (
        f'<a class="buy" href="{escape(href)}" data-track="{tracking}">'
        f"Buy at {escape(merchant)}</a>"
    )


def _offers(
    rng: Random, product: str, merchants: list[str], base64_style: bool
) -> tuple[str, list[str]]:
    fmt = listing.price_style(rng)
    destinations = [_destination(rng, merchant, product) for merchant in merchants]
    rows = "".join(
        f'<li class="offer"><span class="merchant">{escape(merchant)}</span> '
        f'<span class="price">{escape(fmt(listing.cents(rng)))}</span> '
        f"{_link(rng, merchant, destination, base64_style)}</li>"
        for merchant, destination in zip(merchants, destinations, strict=True)
    )
    html = (
        f'<section class="offers"><h2>{escape(product)}</h2>'
        f'<ul class="offer-list">{rows}</ul></section>'
    )
    return html, destinations


def generate(rng: Random) -> Generated:
    merchants = pools.unique(
        rng, lambda r: f"{r.choice(pools.COMPANIES)} {r.choice(_SUFFIXES)}", rng.randint(3, 5)
    )
    product, related = pools.unique(rng, pools.product_name, 2)
    base64_style = rng.random() < 0.5
    own = rng.sample(merchants, rng.randint(2, len(merchants)))
    target = rng.randrange(len(own))
    main_html, destinations = _offers(rng, product, own, base64_style)
    # The related product lists the requested merchant too.
    rest = [m for m in merchants if m != own[target]]
    others = [own[target], *rest[: rng.randint(0, 2)]]
    related_html, _ = _offers(rng, related, others, base64_style)
    blocks = [main_html, related_html]
    rng.shuffle(blocks)
    html = wrap_page(
        rng,
        title=f"Compare prices: {product}",
        main_html="\n".join(blocks),
        difficulty=ARCHETYPE.difficulty,
    )
    lead = f'On the offers for "{product}", the "Buy at {own[target]}" link'
    if base64_style:
        query = (
            f"{lead} keeps its destination base64-encoded (standard alphabet) in its data-dest "
            "attribute. What is the decoded URL?"
        )
    else:
        query = (
            f'{lead} goes through a redirect whose "u" query parameter holds the destination, '
            "percent-encoded. What is that destination URL, decoded once?"
        )
    template = "base64_link_target" if base64_style else "percent_link_target"
    return Generated(html=html, query=query, query_template=template, truth=destinations[target])


ARCHETYPE = ArchetypeSpec(
    id="encoded_link_target",
    category=Category.ENCODING,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="A link's destination, percent-encoded in a redirect or base64 in data-dest.",
    answer_schema=(
        'a string, the decoded URL exactly (e.g. "https://shop.example/p/item?ref=x7&q=gift%20set")'
    ),
    generate=generate,
)
