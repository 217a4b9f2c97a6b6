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
    """A listing layout and how many of its items the first screen shows."""

    layout: Slotted
    shown: int
    list_id: str

    def slot(self, rng: Random, trigger: feeds.Trigger, after_list: str = "") -> str:
        """Count line, the first cards (and skeletons), ``after_list``, then the trigger."""
        style = self.layout.card_style
        cards = [feeds.card_html(card, style) for card in self.layout.cards[: self.shown]]
        total = len(self.layout.cards)
        return (
            feeds.count_line(self.shown, total)
            + feeds.list_html(cards + feeds.skeletons(rng), self.list_id)
            + after_list
            + trigger.html
            + trigger.script
        )


def start(rng: Random, extra: int, notes: bool) -> Feed:
    """A listing (see ``slot_tables.item_list`` for ``extra`` and ``notes``) and its cut."""
    layout = slot_tables.item_list(rng, extra, notes)
    shown = rng.randint(3, min(8, len(layout.cards) - 3))
    return Feed(layout, shown, f"items-{token(rng, 6)}")


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
