"""The selector and list archetypes defeat the shortcuts their docstrings name.

Each test runs the named shortcut over many seeds and measures how often the grader rejects
its answer; the helpers behind the list archetypes are checked on known cases.
"""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup, Tag

from bs4_env.tasks.html import list_pools, selector_pools
from bs4_env.tasks.model import JSONValue, Task
from tests.archetypes.breadth_helpers import heading, quoted, soup, tasks, text_of, wrong_share

SEEDS = 100


def test_ordinal_suffixes() -> None:
    cases = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th"}
    cases |= {21: "21st", 22: "22nd", 23: "23rd", 111: "111th", 102: "102nd"}
    assert {n: selector_pools.ordinal(n) for n in cases} == cases


@pytest.mark.parametrize(
    ("count", "start", "reversed_", "values", "shown"),
    [
        (3, None, False, [None, None, None], [1, 2, 3]),
        (3, None, True, [None, None, None], [3, 2, 1]),
        (4, 10, False, [None, None, 15, None], [10, 11, 15, 16]),
        (4, 7, False, [None, 7, None, None], [7, 7, 8, 9]),
        (3, 50, True, [None, 40, None], [50, 40, 39]),
        (2, None, False, [5, None], [5, 6]),
    ],
)
def test_displayed_numbers_follow_the_html_rule(
    count: int, start: int | None, reversed_: bool, values: list[int | None], shown: list[int]
) -> None:
    assert list_pools.displayed_numbers(count, start, reversed_, values) == shown


def test_displayed_numbers_reject_a_length_mismatch() -> None:
    with pytest.raises(ValueError, match="2 values for 3 items"):
        list_pools.displayed_numbers(3, None, False, [None, None])


@pytest.mark.slow
def test_first_element_with_the_class_is_wrong() -> None:
    def first_match(task: Task) -> JSONValue:
        found = soup(task).find(class_=quoted(task, r'with class "([^"]+)"'))
        return text_of(found) if isinstance(found, Tag) else None

    assert wrong_share(tasks("scoped_class_in_id", SEEDS), first_match) >= 0.95


def _review(element: object) -> JSONValue:
    if not isinstance(element, Tag) or "review" not in element.get_attribute_list("class"):
        return None
    author = element.select_one(".review-author")
    stars = element.select_one(".stars")
    if author is None or stars is None:
        return None
    return {"author": text_of(author), "stars": text_of(stars).count("★")}


def _review_list(task: Task, page: BeautifulSoup) -> Tag:
    section = heading(page, quoted(task, r'In the "([^"]+)" section')).find_parent("section")
    assert section is not None
    return section


@pytest.mark.slow
@pytest.mark.parametrize(
    ("selector", "threshold"),
    [
        (".review-list > .review:nth-child({n})", 0.9),
        (".review-list > article:nth-of-type({n})", 0.9),
    ],
)
def test_nth_child_and_nth_of_type_count_the_wrong_siblings(
    selector: str, threshold: float
) -> None:
    def idiom(task: Task) -> JSONValue:
        n = int(quoted(task, r"wrote the (\d+)\w\w review"))
        return _review(_review_list(task, soup(task)).select_one(selector.format(n=n)))

    assert wrong_share(tasks("nth_review_interleaved", SEEDS), idiom) >= threshold


@pytest.mark.slow
def test_counting_reviews_over_the_whole_page_is_often_wrong() -> None:
    def idiom(task: Task) -> JSONValue:
        n = int(quoted(task, r"wrote the (\d+)\w\w review"))
        return _review(soup(task).select(".review")[n - 1])

    assert wrong_share(tasks("nth_review_interleaved", SEEDS), idiom) >= 0.35


@pytest.mark.slow
def test_page_wide_attribute_selectors_over_collect() -> None:
    def idiom(task: Task) -> JSONValue:
        if task.query_template == "mailto_addresses":
            links = soup(task).select('a[href^="mailto:"]')
            return [str(a["href"])[7:].split("?")[0] for a in links]
        return [str(a["href"]) for a in soup(task).select('a[href$=".pdf"]')]

    assert wrong_share(tasks("attribute_selector_links", SEEDS), idiom) >= 0.95


@pytest.mark.slow
def test_first_card_with_the_phrase_on_the_page_is_often_wrong() -> None:
    def idiom(task: Task) -> JSONValue:
        phrase = quoted(task, r'bio mentions "([^"]+)"')
        card = soup(task).select_one(f'.person-card:-soup-contains("{phrase}")')
        assert card is not None
        name, time = card.select_one(".name"), card.find("time")
        assert isinstance(name, Tag) and isinstance(time, Tag)
        return {"name": text_of(name), "time": text_of(time)}

    assert wrong_share(tasks("contains_phrase_card", SEEDS), idiom) >= 0.35


@pytest.mark.slow
@pytest.mark.parametrize(("method", "threshold"), [("siblings", 0.6), ("next", 0.95)])
def test_general_sibling_and_find_next_miss_the_section_end(method: str, threshold: float) -> None:
    def idiom(task: Task) -> JSONValue:
        page = soup(task)
        title = quoted(task, r'section "([^"]+)"\?')
        start = next(h for h in page.select("article h2") if text_of(h) == title)
        if method == "siblings":  # what ``h2 ~ p`` selects
            return [text_of(p) for p in start.find_next_siblings("p")]
        first = start.find_next("p")
        return [text_of(first)] if isinstance(first, Tag) else []

    assert wrong_share(tasks("paragraphs_until_next_heading", SEEDS), idiom) >= threshold


@pytest.mark.slow
def test_first_dd_is_wrong() -> None:
    def idiom(task: Task) -> JSONValue:
        found = soup(task).select_one("dl.specs dd")
        return text_of(found) if found is not None else None

    assert wrong_share(tasks("dl_term_value", SEEDS), idiom) >= 0.95


def _own_specs(task: Task, page: BeautifulSoup) -> Tag:
    product = quoted(task, r'list of "([^"]+)"')
    section = heading(page, product).find_parent("section")
    assert section is not None
    specs = section.find("dl", class_="specs")
    assert isinstance(specs, Tag)
    return specs


def _values_after(dt: Tag) -> list[str]:
    values: list[str] = []
    for sibling in dt.find_next_siblings(["dt", "dd"]):
        if sibling.name == "dt" and values:
            break
        if sibling.name == "dd":
            values.append(text_of(sibling))
    return values


@pytest.mark.slow
@pytest.mark.parametrize(("method", "threshold"), [("first_dd", 0.5), ("recursive", 0.3)])
def test_one_dd_or_a_recursive_term_search_is_wrong(method: str, threshold: float) -> None:
    def idiom(task: Task) -> JSONValue:
        term = quoted(task, r'for the term "([^"]+)"')
        specs = _own_specs(task, soup(task))
        dt = next(d for d in specs.find_all("dt") if text_of(d) == term)  # recursive
        if method == "recursive":
            return _values_after(dt)
        own = [d for d in specs.find_all("dt") if d.find_parent("dl") is specs]
        top = next(d for d in own if text_of(d) == term)
        first = top.find_next_sibling("dd")
        return [text_of(first)] if isinstance(first, Tag) else []

    assert wrong_share(tasks("dl_multi_values", SEEDS), idiom) >= threshold


def _ranking(task: Task) -> tuple[Tag, list[Tag], str]:
    page = soup(task)
    title = quoted(task, r'In the list "([^"]+)"')
    ol = heading(page, title).find_next_sibling("ol")
    assert isinstance(ol, Tag)
    item = quoted(task, r'next to "([^"]+)"\?')
    return ol, ol.find_all("li", recursive=False), item


@pytest.mark.slow
@pytest.mark.parametrize(("method", "threshold"), [("position", 0.9), ("start_plus_index", 0.3)])
def test_position_or_start_plus_index_is_wrong(method: str, threshold: float) -> None:
    def idiom(task: Task) -> JSONValue:
        ol, items, item = _ranking(task)
        index = next(i for i, li in enumerate(items) if text_of(li.select_one(".title")) == item)
        start = int(str(ol["start"])) if ol.has_attr("start") else 1
        return index + 1 if method == "position" else start + index

    assert wrong_share(tasks("ol_displayed_number", SEEDS), idiom) >= threshold


@pytest.mark.slow
@pytest.mark.parametrize(("method", "threshold"), [("item_names", 0.3), ("all_li", 0.95)])
def test_nested_lists_and_non_items_break_naive_listing(method: str, threshold: float) -> None:
    def idiom(task: Task) -> JSONValue:
        page = soup(task)
        title = quoted(task, r'items in the "([^"]+)" listing')
        section = heading(page, title).find_parent("section")
        assert section is not None
        if method == "item_names":
            return [text_of(name) for name in section.select(".item-name")]
        items = section.find("ul", class_="items")
        assert isinstance(items, Tag)
        return [text_of(li) for li in items.find_all("li", recursive=False)]

    assert wrong_share(tasks("item_list_nested", SEEDS), idiom) >= threshold
