"""A "load more" listing whose remaining items are pre-rendered, hidden, in the HTML.

Skill: collecting every item of the named listing, including a second page of cards that
a "Load more" button or scroll sentinel only reveals (a list or wrapper hidden with
``hidden`` or ``display:none`` inside the listing's block), and checking the result
against the listing's own count ("Showing 6 of 17 items").
Shortcuts resisted: this is a solvable twin of ``infinite_scroll`` (same request, pools,
count line, trigger, endpoint and loader script, chrome level; the sort menu is hidden the
page's way too, so a hidden list is no tell), so "a load-more trigger means
abstain" scores 0, and "answer the visible items" misses the rest; skipping hidden
elements (right elsewhere) is wrong here because the request asks for every item; skeleton
placeholders and decoy listings sit on the page.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import feed_pages, feeds
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    # A notes block stands where ``infinite_scroll`` often has another listing (as many
    # cards as are hidden here), so the number of blocks is distributed alike on both.
    feed = feed_pages.start(rng, 0, notes=True)
    layout = feed.layout
    hidden = "".join(feeds.card_html(c, layout.card_style) for c in layout.cards[feed.shown :])
    # A second list of the same class, hidden the page's way: the loader
    # (``feeds.trigger``) shows every other ``.items`` list of the listing.
    rest = feed.hidden_list("items", hidden)
    slot = feed.slot(rng, feeds.trigger(rng, feed.list_id, feeds.next_page_url(rng)), rest)
    return Generated(
        html=feed_pages.page(rng, feed, slot, []),
        query=layout.query.text,
        query_template=layout.query.template,
        answer_schema=layout.query.answer_schema,
        truth=layout.truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="load_more_static",
    category=Category.LISTS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A load-more listing whose other items are pre-rendered, hidden, in the HTML.",
    answer_schema=queries.ITEM_LIST_SCHEMA,
    generate=generate,
    solution_of="infinite_scroll",
)
