"""Whole pages of a listing that shows its first items and loads the rest on demand.

Shared by ``infinite_scroll`` (the rest arrives by XHR) and its solvable twins
``load_more_static`` (the rest is pre-rendered, hidden) and ``load_more_json`` (the rest is
in a JSON blob): the same listing layout, count line ("Showing 6 of 17 items"), list,
skeleton cards, trigger and chrome, so only where the other items are tells them apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from bs4_env.tasks.html import feeds, slot_tables
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.html.slots import Slotted
from bs4_env.tasks.model import LimitReason
from bs4_env.tasks.rng import token


@dataclass(frozen=True)
class Feed:
    """A listing layout, how many of its items the first screen shows, how it hides."""

    layout: Slotted
    shown: int
    list_id: str
    hiding: int

    def hidden_list(self, klass: str, items: str) -> str:
        """A list of class ``klass`` hidden the page's way."""
        return feeds.hidden_list(self.hiding, klass, items)

    def slot(self, rng: Random, trigger: feeds.Trigger, after_list: str = "") -> str:
        """Count line, the first cards (and skeletons), ``after_list``, then the trigger."""
        layout = self.layout
        return feeds.first_screen(
            rng, layout.cards, layout.card_style, self.shown, self.list_id, self.hiding, trigger,
            after_list,
        )  # fmt: skip


def start(rng: Random, extra: int, notes: bool) -> Feed:
    """A listing (see ``slot_tables.item_list`` for ``extra`` and ``notes``) and its cut."""
    layout = slot_tables.item_list(rng, extra, notes)
    shown = rng.randint(3, min(8, len(layout.cards) - 3))
    return Feed(layout, shown, f"items-{token(rng, 6)}", rng.randrange(len(feeds.HIDING)))


def page(rng: Random, feed: Feed, slot: str, extras: list[str]) -> str:
    """The whole page. Every feed page, blocked or not, tells the chrome it holds a
    load-more element, so the chrome carries one fewer harmless one on each alike."""
    return wrap_page(
        rng,
        title=feed.layout.title,
        main_html=feed.layout.main(rng, slot, extras),
        difficulty=feed.layout.chrome,
        breadcrumbs=feed.layout.breadcrumbs,
        limitation=LimitReason.INFINITE_SCROLL,
    )
