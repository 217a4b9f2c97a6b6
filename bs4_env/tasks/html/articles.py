"""Shared store/contact content: store names, phone numbers, JSON-LD blocks, contact sections.

Used by the ``json_ld`` archetype and its limitation twin ``image_text`` so that both pages
look alike (same contact layout, same decoy numbers) and differ only in where the
customer-service number lives.
"""

from __future__ import annotations

import json
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import sample, token

_DIGITS = "0123456789"
_STREETS = ("Harbour", "Mill", "Station", "Market", "Church", "Garden", "Bridge", "Linden", "Elm")
_STREET_KINDS = ("Street", "Road", "Lane", "Avenue", "Square", "Quay")
_BRANCH_WORDS = ("", "Central", "Old Town", "Riverside", "North", "Harbourfront", "Outlet")


def _digits(rng: Random, n: int) -> str:
    # ``str(rng.randint(0, 9))`` per digit, written out: the same ``getrandbits(4)`` draw,
    # drawn again while 10 or more (``rng.between``).
    getrandbits, digits = rng.getrandbits, ""
    for _ in range(n):
        r = getrandbits(4)
        while r >= 10:
            r = getrandbits(4)
        digits += _DIGITS[r]
    return digits


def phone_number(rng: Random) -> str:
    """A phone number in one of several national display formats."""
    style = rng.randrange(5)
    if style == 0:
        return f"+1 ({rng.randint(201, 989)}) 555-{_digits(rng, 4)}"
    if style == 1:
        return f"+44 20 {_digits(rng, 4)} {_digits(rng, 4)}"
    if style == 2:
        return f"+49 {rng.randint(30, 89)} {_digits(rng, rng.randint(6, 8))}"
    if style == 3:
        return f"+33 {rng.randint(1, 5)} " + " ".join(_digits(rng, 2) for _ in range(4))
    return f"(0{rng.randint(10, 99)}) {_digits(rng, 4)} {_digits(rng, 4)}"


def store_name(rng: Random) -> str:
    words = rng.choice(_BRANCH_WORDS)
    city = rng.choice(pools.CITIES)
    return f"{rng.choice(pools.COMPANIES)} {city}" + (f" {words}" if words else "")


def street_address(rng: Random) -> str:
    return f"{rng.randint(1, 240)} {rng.choice(_STREETS)} {rng.choice(_STREET_KINDS)}"


def ld_script(rng: Random, data: object) -> str:
    """A JSON-LD script as sites emit it: minified or indented, sometimes \\u-escaped."""
    text = json.dumps(
        data, ensure_ascii=rng.random() < 0.5, indent=rng.choice((None, 2)), sort_keys=False
    )
    # Real serializers escape "</" so the JSON cannot close the script element early.
    text = text.replace("</", "<\\/")
    return f'<script type="application/ld+json">{text}</script>'


def store_ld(
    store: str, street: str, telephone: str | None, fax: str | None = None
) -> dict[str, object]:
    """A LocalBusiness entity; ``telephone``/``fax`` left out when None."""
    data: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": "Store",
        "name": store,
        "address": {"@type": "PostalAddress", "streetAddress": street},
        "openingHours": "Mo-Fr 09:00-18:00",
        "description": "Repairs &amp; returns handled in store",
    }
    if telephone is not None:
        data["telephone"] = telephone
    if fax is not None:
        data["faxNumber"] = fax
    return data


def tel_href(phone: str) -> str:
    """A ``tel:`` URL of a displayed number (digits and a leading plus), one shape everywhere."""
    return "tel:" + "".join(ch for ch in phone if ch.isdigit() or ch == "+")


def contact_section(rng: Random, store: str, street: str, phone_html: str, press: str) -> str:
    """The visible contact block; the customer-service row shows ``phone_html``."""
    rows = [
        f"<dt>Address</dt><dd>{escape(street)}</dd>",
        f"<dt>Customer service</dt><dd>{phone_html}</dd>",
        f'<dt>Press office</dt><dd><a href="{tel_href(press)}">{press}</a></dd>',
        f"<dt>Opening hours</dt><dd>Mon–Fri {rng.randint(8, 10)}:00–{rng.randint(17, 20)}:00</dd>",
    ]
    body = rows[:1] + sample(rng, rows[1:], 3)
    return (
        f'<section class="store-contact" id="contact-{token(rng, 5)}"><h1>{escape(store)}</h1>'
        f'<p>{escape(pools.sentence(rng, 10))}</p><dl class="contact">{"".join(body)}</dl>'
        "</section>"
    )


def branch_section(store: str, street: str) -> str:
    """A teaser for a sister store (its own number lives in its own JSON-LD block)."""
    return (
        f'<section class="other-branch"><h2>Also visit {escape(store)}</h2>'
        f"<p>{escape(street)}</p></section>"
    )


def ld_scripts(rng: Random, entities: list[dict[str, object]]) -> list[str]:
    """Script tags for ``entities`` plus a WebSite entity: one ``@graph`` or one per entity."""
    context = "https://schema.org"
    site = {"@type": "WebSite", "name": rng.choice(pools.COMPANIES), "url": "/"}
    entities = [*entities, {"@context": context, **site}]
    if rng.random() < 0.4:
        graph = [{k: v for k, v in e.items() if k != "@context"} for e in entities]
        return [ld_script(rng, {"@context": context, "@graph": graph})]
    return [ld_script(rng, e) for e in entities]
