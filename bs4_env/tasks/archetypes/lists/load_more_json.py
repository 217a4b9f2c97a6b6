"""A "load more" listing whose remaining items are in a JSON blob in the page.

Skill: collecting every item of the named listing when only its first cards are rendered:
the count line ("Showing 6 of 17 items") says more exist, the trigger's loader appends the
items of a ``<script type="application/json">`` blob after those already shown (skeleton
placeholders are not items), and the blob (found by the listing's title) holds every
item, so ``json.loads`` on it gives the whole list.
Shortcuts resisted: this is a solvable twin of ``infinite_scroll`` (same request, pools,
count line, trigger, endpoint and loader script, chrome level), so "a load-more trigger means
abstain" scores 0, and "answer the visible items" misses the rest; ``infinite_scroll``
pages carry a JSON blob as often (of another listing), so the blob's title must match;
skeleton placeholders and decoy listings sit on the page.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import feed_pages, feeds
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    feed = feed_pages.start(rng, 0, notes=False)
    trigger = feeds.trigger(rng, feed.list_id, feeds.next_page_url(rng))
    blob = feeds.json_blob(rng, feed.layout.state, feeds.blob_id(feed.list_id))
    inside = rng.random() < 0.5
    slot = feed.slot(rng, trigger) + (blob if inside else "")
    return Generated(
        html=feed_pages.page(rng, feed, slot, [] if inside else [blob]),
        query=feed.layout.query.text,
        query_template=feed.layout.query.template,
        answer_schema=feed.layout.query.answer_schema,
        truth=feed.layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="load_more_json",
    category=Category.LISTS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A load-more listing whose other items are in a JSON blob the script reads.",
    answer_schema=queries.ITEM_LIST_SCHEMA,
    generate=generate,
    solution_of="infinite_scroll",
)
