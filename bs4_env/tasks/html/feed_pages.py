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

# How a site hides what is not shown yet; one way per page, for everything hidden in the
# listing (its collapsed sort menu, and on ``load_more_static`` its second page of cards).
_HIDING = (
    '<ul class="{}" hidden>{}</ul>',
    '<div style="display:none"><ul class="{}">{}</ul></div>',
    '<ul class="{}" aria-hidden="true" hidden>{}</ul>',
)
_SORTS = ("Featured", "Newest", "Price: low to high", "Price: high to low", "Top rated")


@dataclass(frozen=True)
class Feed:
    """A listing layout, how many of its items the first screen shows, how it hides."""

    layout: Slotted
    shown: int
    list_id: str
    hiding: int

    def hidden_list(self, klass: str, items: str) -> str:
        """A list of class ``klass`` hidden the page's way."""
        return _HIDING[self.hiding].format(klass, items)

    def sort_menu(self, rng: Random) -> str:
        """The listing's sort options, collapsed (every feed page has one)."""
        options = "".join(
            f'<li><a href="?sort={token(rng, 4)}">{name}</a></li>'
            for name in rng.sample(_SORTS, rng.randint(3, 5))
        )
        return self.hidden_list("sort-options", options)

    def slot(self, rng: Random, trigger: feeds.Trigger, after_list: str = "") -> str:
        """Count line, the first cards (and skeletons), ``after_list``, then the trigger.

        A third of feeds, of every kind, carry the hidden line the loader shows at the end.
        """
        style = self.layout.card_style
        cards = [feeds.card_html(card, style) for card in self.layout.cards[: self.shown]]
        total = len(self.layout.cards)
        end = '<p class="end-of-list" hidden>You have seen all items.</p>'
        return (
            feeds.count_line(self.shown, total)
            + self.sort_menu(rng)
            + feeds.list_html(cards + feeds.skeletons(rng), self.list_id)
            + after_list
            + (end if rng.random() < 1 / 3 else "")
            + trigger.html
            + trigger.script
        )


def start(rng: Random, extra: int, notes: bool) -> Feed:
    """A listing (see ``slot_tables.item_list`` for ``extra`` and ``notes``) and its cut."""
    layout = slot_tables.item_list(rng, extra, notes)
    shown = rng.randint(3, min(8, len(layout.cards) - 3))
    return Feed(layout, shown, f"items-{token(rng, 6)}", rng.randrange(len(_HIDING)))


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
