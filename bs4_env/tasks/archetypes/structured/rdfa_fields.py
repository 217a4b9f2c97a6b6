"""Values from RDFa Lite markup (``vocab``/``typeof``/``property``): a store's phone or an
event's start, venue and performer.

Skill: scoping to the right resource (the ``typeof`` element whose own ``name`` is the
requested one) and reading a property of it or of a nested resource, with RDFa's value
rules: a ``content`` attribute first, then a ``<time>``'s ``datetime``, then the text.
Shortcuts resisted: half the seeds answer the shared ``contact_phone`` request (same
wording, store names and layout as the ``image_text`` and ``login_required`` limitation
pages), where the press office is a nested ``ContactPoint`` with its own
``property="telephone"`` (often first) and a sister store carries another; some
telephones carry a digits-only ``content`` that differs from the displayed number (the
phone request asks for the display). Event seeds: the displayed date ("3 May, 19:30") is
not the RDFa value; two or three other events share the markup; the location's and the
performer's ``name`` are nested properties beside the event's own ``name``.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import articles, pools, rdfa
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, JSONValue

_EVENT_SCHEMA = (
    'an object with string values, e.g. {"startDate": "2024-05-03T19:30", "location": '
    '"Salle Pleyel", "performer": "Ana Costa"}'
)


def _contact(rng: Random) -> tuple[str, str, queries.Query, JSONValue]:
    store, other = pools.unique(rng, articles.store_name, 2)
    street, other_street = pools.unique(rng, articles.street_address, 2)
    phone, other_phone, press = pools.unique(rng, articles.phone_number, 3)
    blocks = [
        rdfa.store_contact(rng, store, street, phone, press),
        rdfa.branch(rng, other, other_street, other_phone),
    ]
    rng.shuffle(blocks)
    return "\n".join(blocks), f"Contact {store}", queries.contact_phone(store), phone


def _event(rng: Random) -> tuple[str, str, queries.Query, JSONValue]:
    year = rng.randint(2019, 2027)
    titles = pools.unique(rng, lambda r: rdfa.event_title(r, year), rng.randint(3, 4))
    events = [rdfa.draw_event(rng, title, year) for title in titles]
    target = events[0]
    tag = rng.choice(("h2", "h3"))
    blocks = [rdfa.event_block(rng, event, tag) for event in events]
    rng.shuffle(blocks)
    text = (
        "According to the page's RDFa markup (schema.org vocabulary), what are the startDate, "
        f"the location's name and the performer's name of the event \"{target.title}\"? "
        'Return them as {"startDate": ..., "location": ..., "performer": ...}, each value as '
        "RDFa reads it: a content attribute if present, else a <time>'s datetime, else the "
        "element's text."
    )
    query = queries.Query(template="rdfa_event", text=text, answer_schema=_EVENT_SCHEMA)
    truth = {"startDate": target.start, "location": target.venue, "performer": target.performer}
    return f'<section class="events">{"".join(blocks)}</section>', "Events", query, truth


def generate(rng: Random) -> Generated:
    main, title, query, truth = (_contact if rng.random() < 0.5 else _event)(rng)
    html = wrap_page(
        rng,
        title=title,
        main_html=main,
        # The chrome level of every contact-phone page (page size tells nothing).
        difficulty=Difficulty.MEDIUM,
    )
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        answer_schema=query.answer_schema,
        truth=truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="rdfa_fields",
    category=Category.STRUCTURED,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A store phone or an event's fields from RDFa, with nested resources.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
