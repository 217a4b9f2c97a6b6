"""The aggregation archetypes and ``deeply_nested_value`` defeat the shortcuts they name.

Each test plays a named shortcut over 40 seeds and measures how often the grader rejects
its answer; the reference program, forced to ``html.parser`` and then to ``lxml``, must
reach the truth both times (the parsers build the same tree for these pages).

The shortcuts only read the page, so they share one ``html.parser`` tree per page (``soup``):
a parse per shortcut and page was most of this module's time.
"""

from __future__ import annotations

import functools
import re

import pytest
from bs4 import BeautifulSoup, Tag

from bs4_env.grading.normalize import answers_match
from bs4_env.tasks.html import aggregation_pools as agg
from bs4_env.tasks.model import JSONValue, Task
from tests.archetypes.breadth_helpers import (
    heading,
    quoted,
    run_reference,
    tasks,
    text_of,
    wrong_share,
)

SEEDS = 40
IDS = (
    "count_distinct_dedupe",
    "sum_with_rules",
    "group_count_by_label",
    "max_by_field",
    "dedupe_across_tables",
    "deeply_nested_value",
)


def soup(task: Task) -> BeautifulSoup:
    """The task's page as ``html.parser`` builds it, one tree per page for every shortcut
    (each only reads it: select, find, get_text), the last ``SEEDS`` pages kept."""
    return _parse(task.html)


@functools.lru_cache(maxsize=SEEDS)
def _parse(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


def _section(task: Task, pattern: str) -> Tag:
    found = heading(soup(task), quoted(task, pattern)).find_parent(["section", "aside"])
    assert isinstance(found, Tag)
    return found


def test_respell_differs_but_reads_the_same() -> None:
    from random import Random

    rng = Random(7)
    for name in ("Aero Kettle Pro", "Oak Fan", "Nova Desk Lamp 2"):
        for _ in range(30):
            shown = agg.respell(rng, name)
            assert shown != name
            assert " ".join(shown.split()).casefold() == name.casefold()


def test_money_groups_thousands() -> None:
    assert agg.money(124_900, "$") == "$1,249.00"
    assert agg.money(5, "£") == "£0.05"
    assert agg.money(123_456_789, "$") == "$1,234,567.89"


@pytest.mark.slow
@pytest.mark.parametrize("archetype_id", IDS)
def test_parsers_agree_on_the_truth(archetype_id: str) -> None:
    for task in tasks(archetype_id, SEEDS):
        for parser in ("html.parser", "lxml"):
            got = run_reference(task, parser)
            assert answers_match(got, task.truth, task.normalization), (task.seed, parser, got)


@pytest.mark.slow
def test_count_distinct_shortcuts_are_wrong() -> None:
    pattern = r'listed in the "([^"]+)" section'
    found = tasks("count_distinct_dedupe", SEEDS)

    def cards(task: Task) -> JSONValue:
        return len(_section(task, pattern).select(".product-card"))

    def page_skus(task: Task) -> JSONValue:
        return len({str(t["data-sku"]) for t in soup(task).select("[data-sku]")})

    def names(task: Task) -> JSONValue:
        return len({text_of(n) for n in _section(task, pattern).select(".product-name")})

    def folded_names(task: Task) -> JSONValue:
        section = _section(task, pattern)
        return len({text_of(n).casefold() for n in section.select(".product-name")})

    assert wrong_share(found, cards) == 1.0
    assert wrong_share(found, page_skus) >= 0.95
    assert wrong_share(found, names) >= 0.95
    assert wrong_share(found, folded_names) >= 0.3


def _orders(task: Task) -> tuple[Tag, str, str]:
    table = heading(soup(task), quoted(task, r'In the table "([^"]+)"')).find_next("table")
    assert isinstance(table, Tag)
    column = quoted(task, r"sum of the (\w+) column")
    return table, column, quoted(task, r'status is exactly "([^"]+)"')


def _sum_orders(task: Task, keep: str, read: str) -> JSONValue:
    """Sum the column over rows kept by ``keep`` ("exact", "substring", "all")."""
    table, column, status = _orders(task)
    head = table.find("thead")
    assert isinstance(head, Tag)
    headers = [text_of(th) for th in head.find_all("th")]
    total = 0
    for tr in table.select("tbody tr"):
        cells = dict(zip(headers, tr.find_all("td"), strict=True))
        shown = text_of(cells["Status"])
        matches = {"exact": shown == status, "substring": status.lower() in shown.lower()}
        if not matches.get(keep, True):
            continue
        numbers = re.findall(r"[\d,]+(?:\.\d+)?", cells[column].get_text())
        value = numbers[0] if read == "first" else numbers[-1]
        total += round(float(value.replace(",", "")) * 100)
    return total // 100 if column == "Qty" else total / 100


@pytest.mark.slow
def test_sum_with_rules_shortcuts_are_wrong() -> None:
    found = tasks("sum_with_rules", SEEDS)
    assert wrong_share(found, lambda t: _sum_orders(t, "exact", "last")) == 0.0, "control"
    assert wrong_share(found, lambda t: _sum_orders(t, "all", "last")) >= 0.95
    assert wrong_share(found, lambda t: _sum_orders(t, "substring", "last")) >= 0.95
    totals = [t for t in found if "Total column" in t.query]
    assert len(totals) >= SEEDS // 3
    assert wrong_share(totals, lambda t: _sum_orders(t, "exact", "first")) >= 0.95


def _stars(rating: Tag) -> int:
    if rating.has_attr("data-stars"):
        return int(str(rating["data-stars"]))
    label = rating.get("title") or rating.get("aria-label")
    if label:
        return int(re.findall(r"\d", str(label))[0])
    return len(rating.select("i.star.full"))


def _count_ratings(ratings: list[Tag]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for rating in ratings:
        counts[str(_stars(rating))] = counts.get(str(_stars(rating)), 0) + 1
    return counts


@pytest.mark.slow
def test_group_count_shortcuts_are_wrong() -> None:
    found = tasks("group_count_by_label", SEEDS)

    def every_rating(task: Task) -> JSONValue:
        return _count_ratings(_section(task, r'In the "([^"]+)" section').select(".rating"))

    def page_reviews(task: Task) -> JSONValue:
        own = [r.select_one("header .rating") for r in soup(task).select(".review-list > .review")]
        return _count_ratings([r for r in own if isinstance(r, Tag)])

    def own_reviews(task: Task) -> JSONValue:
        section = _section(task, r'In the "([^"]+)" section')
        own = [r.select_one("header .rating") for r in section.select(".review-list > .review")]
        return _count_ratings([r for r in own if isinstance(r, Tag)])

    assert wrong_share(found, own_reviews) == 0.0, "control"
    assert wrong_share(found, every_rating) == 1.0
    assert wrong_share(found, page_reviews) == 1.0


def _card_value(card: Tag, task: Task) -> float:
    selector = ".price" if "highest price" in task.query else ".rating .score"
    value = card.select_one(selector)
    assert isinstance(value, Tag)
    return float(re.sub(r"[^\d.]", "", value.get_text()))


def _best(task: Task, cards: list[Tag]) -> JSONValue:
    best = max(cards, key=lambda card: _card_value(card, task))
    return text_of(best.select_one(".card-title"))


@pytest.mark.slow
def test_max_by_field_shortcuts_are_wrong() -> None:
    found = tasks("max_by_field", SEEDS)
    pattern = r'In the "([^"]+)" listing'

    def first(task: Task) -> JSONValue:
        return text_of(_section(task, pattern).select_one("li.card .card-title"))

    def string_max(task: Task) -> JSONValue:
        cards = _section(task, pattern).select("li.card")
        best = max(cards, key=lambda card: text_of(card.select_one(".price")))
        return text_of(best.select_one(".card-title"))

    assert wrong_share(found, lambda t: _best(t, _section(t, pattern).select("li.card"))) == 0.0

    # Every product card on the page (the blocker copies add cards of their own, titleless).
    def all_cards(task: Task) -> list[Tag]:
        selector = ".price" if "highest price" in task.query else ".rating .score"
        cards = soup(task).select("li.card")
        return [c for c in cards if c.select_one(".card-title") and c.select_one(selector)]

    assert wrong_share(found, lambda t: _best(t, all_cards(t))) == 1.0
    assert wrong_share(found, first) >= 0.8
    prices = [t for t in found if "highest price" in t.query]
    assert len(prices) >= SEEDS // 4
    assert wrong_share(prices, string_max) >= 0.9


def _emails(page: BeautifulSoup, title: str) -> list[str]:
    table = heading(page, title).find_parent("section")
    assert isinstance(table, Tag)
    headers = [text_of(th) for th in table.select("thead th")]
    column = headers.index("Email")
    return [text_of(tr.find_all("td")[column]) for tr in table.select("tbody tr")]


@pytest.mark.slow
def test_dedupe_across_tables_shortcuts_are_wrong() -> None:
    found = tasks("dedupe_across_tables", SEEDS)
    pattern = r'registered in the tables "([^"]+)" and "([^"]+)"'

    def named(task: Task) -> list[str]:
        match = re.search(pattern, task.query)
        assert match is not None
        page = soup(task)
        return [e for title in match.groups() for e in _emails(page, title)]

    def page_order(task: Task) -> list[str]:
        match = re.search(pattern, task.query)
        assert match is not None
        titles = [text_of(h) for h in soup(task).find_all("h2") if text_of(h) in match.groups()]
        page = soup(task)
        return [e for title in titles for e in _emails(page, title)]

    def first_seen(emails: list[str]) -> list[str]:
        return list(dict.fromkeys(emails))

    def lowered(emails: list[str]) -> list[str]:
        return [e.lower() for e in emails]

    assert wrong_share(found, lambda t: first_seen(lowered(named(t)))) == 0.0, "control"
    assert wrong_share(found, lambda t: first_seen(named(t))) >= 0.95
    assert wrong_share(found, lambda t: lowered(named(t))) >= 0.95
    assert wrong_share(found, lambda t: sorted(set(lowered(named(t))))) >= 0.95
    assert wrong_share(found, lambda t: first_seen(lowered(page_order(t)))) >= 0.3


def _unit(task: Task, page: BeautifulSoup) -> Tag:
    uid = quoted(task, r'data-unit="([^"]+)"')
    unit = page.select_one(f'[data-unit="{uid}"]')
    assert isinstance(unit, Tag)
    return unit


@pytest.mark.slow
def test_deeply_nested_value_shortcuts_are_wrong() -> None:
    found = tasks("deeply_nested_value", SEEDS)

    def anchored_regex(task: Task) -> JSONValue:
        uid = re.escape(quoted(task, r'data-unit="([^"]+)"'))
        match = re.search(rf'data-unit="{uid}".*?class="cc-code">([^<]+)<', task.html, re.S)
        return match.group(1) if match else None

    def first_regex(task: Task) -> JSONValue:
        return re.findall(r'class="cc-code">([^<]+)<', task.html)[0]

    def first_below(task: Task) -> JSONValue:
        return text_of(_unit(task, soup(task)).find(class_="cc-code"))

    def last_below(task: Task) -> JSONValue:
        return text_of(_unit(task, soup(task)).find_all(class_="cc-code")[-1])

    assert wrong_share(found, anchored_regex) == 1.0
    assert wrong_share(found, first_below) == 1.0
    assert wrong_share(found, last_below) == 1.0
    assert wrong_share(found, first_regex) >= 0.95


@pytest.mark.slow
def test_deeply_nested_value_depth_and_size() -> None:
    for task in tasks("deeply_nested_value", SEEDS):
        assert 50_000 <= len(task.html) <= 300_000, (task.seed, len(task.html))
        depths = []
        for parser in ("html.parser", "lxml"):
            page = BeautifulSoup(task.html, parser)
            unit = _unit(task, page)
            own = [
                c
                for c in unit.find_all(class_="cc-code")
                if c.find_parent(attrs={"data-unit": True}) is unit
            ]
            assert [text_of(c) for c in own] == [task.truth]
            depths.append(len(list(own[0].parents)))
            assert len(page.select(".cc-code")) >= 4
        assert depths[0] == depths[1], (task.seed, depths)
        assert 200 <= depths[0] <= 600, (task.seed, depths)
