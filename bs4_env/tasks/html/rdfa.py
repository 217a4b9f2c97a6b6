"""RDFa Lite blocks (``vocab``/``typeof``/``property``) with the schema.org vocabulary.

RDFa reads a property's value from its ``content`` attribute when present, else from a
``<time>``'s ``datetime``, else from ``href``/``src`` on links and media, else from the
text. A ``property`` that also has ``typeof`` starts a nested resource (a Place, a
Person, a ContactPoint) whose own ``name`` or ``telephone`` belongs to it, not to the
outer one. The builders put nested resources before or after the outer properties.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import token

VOCAB = "https://schema.org/"
_TOPICS = ("Jazz", "Design", "Data", "Film", "Food", "Poetry", "Robotics", "Folk", "Chess", "Wine")
_EVENTS = ("Festival", "Night", "Summit", "Meetup", "Workshop", "Concert", "Expo", "Forum")
_VENUES = ("{} Concert Hall", "Théâtre {}", "Salle {}", "Sala {}", "{} Arena", "Café {}")
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _tel(phone: str) -> str:
    return "tel:" + "".join(ch for ch in phone if ch.isdigit() or ch == "+")


def phone(rng: Random, number: str) -> str:
    """A displayed number with ``property="telephone"``: a link, a span, or a span whose
    ``content`` holds the digits (then RDFa's value differs from the display)."""
    style = rng.randrange(3)
    if style == 0:
        return f'<a property="telephone" href="{_tel(number)}">{escape(number)}</a>'
    if style == 1:
        return f'<span property="telephone">{escape(number)}</span>'
    return f'<span property="telephone" content="{_tel(number)[4:]}">{escape(number)}</span>'


def store_contact(rng: Random, store: str, street: str, number: str, press: str) -> str:
    """A Store resource; its press office is a nested ContactPoint with its own telephone."""
    rows = [
        f"<dt>Customer service</dt><dd>{phone(rng, number)}</dd>",
        f'<dt>Press office</dt><dd property="contactPoint" typeof="ContactPoint">'
        f'<meta property="contactType" content="press">{phone(rng, press)}</dd>',
        f"<dt>Opening hours</dt><dd>Mon–Fri {rng.randint(8, 10)}:00–{rng.randint(17, 20)}:00</dd>",
    ]
    rng.shuffle(rows)
    return (
        f'<section class="store-contact" vocab="{VOCAB}" typeof="Store" '
        f'id="contact-{token(rng, 5)}"><h1 property="name">{escape(store)}</h1>'
        f'<p>{escape(pools.sentence(rng, 10))}</p><dl class="contact"><dt>Address</dt>'
        f'<dd property="address">{escape(street)}</dd>{"".join(rows)}</dl></section>'
    )


def branch(rng: Random, store: str, street: str, number: str) -> str:
    return (
        f'<section class="other-branch" vocab="{VOCAB}" typeof="Store"><h2>Also visit '
        f'<span property="name">{escape(store)}</span></h2><p property="address">'
        f"{escape(street)}</p><p>Phone: {phone(rng, number)}</p></section>"
    )


@dataclass(frozen=True)
class Event:
    title: str
    start: str
    """ISO 8601 local date-time, e.g. ``2024-05-03T19:30``."""
    venue: str
    performer: str


def event_title(rng: Random, year: int) -> str:
    return f"{rng.choice(pools.ADJECTIVES)} {rng.choice(_TOPICS)} {rng.choice(_EVENTS)} {year}"


def draw_event(rng: Random, title: str, year: int) -> Event:
    start = (
        f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
        f"{rng.randint(9, 21):02d}:{rng.choice(('00', '15', '30', '45'))}"
    )
    venue = rng.choice(_VENUES).format(rng.choice((*pools.CITIES, *pools.LAST_NAMES)))
    return Event(title, start, venue, pools.person_name(rng))


def _shown_date(start: str) -> str:
    """How the page displays a start (e.g. "3 May, 19:30"): not what RDFa reads."""
    day, time = start.split("T")
    _, month, dom = day.split("-")
    return f"{int(dom)} {pools.MONTHS[int(month) - 1][:3]}, {time}"


def _start(rng: Random, start: str) -> str:
    shown = escape(_shown_date(start))
    if rng.random() < 0.5:
        return f'<time property="startDate" datetime="{start}">{shown}</time>'
    return f'<span property="startDate" content="{start}">{shown}</span>'


def event_block(rng: Random, event: Event, tag: str) -> str:
    """One Event resource with nested Place and Person resources (each with a ``name``)."""
    place = (
        f'<div property="location" typeof="Place"><span property="name">{escape(event.venue)}'
        f'</span>, <span property="address">{escape(rng.choice(pools.CITIES))}</span></div>'
    )
    performer = (
        f'<p property="performer" typeof="Person">With <span property="name">'
        f"{escape(event.performer)}</span></p>"
    )
    offer = (
        f'<p property="offers" typeof="Offer">Tickets from <meta property="priceCurrency" '
        f'content="EUR"><span property="price">{rng.randint(8, 90)}.00</span> €</p>'
    )
    parts = [place, performer, _start(rng, event.start), offer]
    rng.shuffle(parts)
    return (
        f'<article class="event" vocab="{VOCAB}" typeof="Event"><{tag} property="name">'
        f"{escape(event.title)}</{tag}>{''.join(parts)}</article>"
    )
