"""A listing shows its first items; the rest arrive by XHR while scrolling.

Skill: collecting every item of the named listing, comparing with the listing's own count
("Showing 6 of 17 items"), and, when the missing items are nowhere in the page (not hidden
in the list, not in a JSON blob), seeing that the feed's trigger (a scroll sentinel watched
by an ``IntersectionObserver``, or a "Load more" button) fetches them from a cursor
endpoint, then abstaining with the trigger's id or endpoint as evidence.
Shortcuts resisted: the request is word-for-word the shared ``item_list`` request ("every
item, not only the first ones shown"), with titles and names from the same pools; the
solvable twins ``load_more_static`` and ``load_more_json`` have the same count line, list,
trigger, cursor endpoint and loader script (``feeds.trigger``: hidden page, else JSON blob,
else fetch; their rest is hidden in the page or in a JSON blob), so "a load-more trigger
or a ``fetch`` means abstain" and "answer the visible items" both fail; skeleton
placeholders, decoy listings and a JSON blob of another listing sit on this page, so
counting ``<li>`` or reading any blob is wrong.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import feed_pages, feeds
from bs4_env.tasks.model import (
    ArchetypeSpec,
    Category,
    Difficulty,
    Generated,
    LimitationInfo,
    LimitReason,
)
from bs4_env.tasks.rng import token


def generate(rng: Random) -> Generated:
    # ``load_more_static`` keeps its other cards in the page (hidden) with a notes block;
    # half the pages here carry about as many cards in another listing instead, so the
    # amount of listing markup and the number of blocks are distributed alike.
    extra = rng.randint(3, 12) if rng.random() < 0.5 else 0
    feed = feed_pages.start(rng, extra, notes=False)
    endpoint = feeds.next_page_url(rng)
    trigger = feeds.trigger(rng, feed.list_id, endpoint)
    slot = feed.slot(rng, trigger)
    extras = []
    # ``load_more_json`` embeds its items as JSON; a blob here holds another listing.
    if rng.random() < 0.5:
        other = feeds.blob_id(f"items-{token(rng, 6)}")
        extras.append(feeds.json_blob(rng, feed.layout.decoy_state, other))
    return Generated(
        html=feed_pages.page(rng, feed, slot, extras),
        query=feed.layout.query.text,
        query_template=feed.layout.query.template,
        answer_schema=feed.layout.query.answer_schema,
        truth=None,
        limitation=LimitationInfo(
            reasons=(LimitReason.INFINITE_SCROLL,), evidence_tokens=(trigger.element_id, endpoint)
        ),
    )


ARCHETYPE = ArchetypeSpec(
    id="infinite_scroll",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=6,
    phase="phase2",
    description="A listing shows its first items; the rest load by XHR from a cursor endpoint.",
    answer_schema=queries.ITEM_LIST_SCHEMA,
    generate=generate,
)
