"""The shortcuts the metadata and structured-data archetypes claim to resist do fail.

Each test runs one common idiom (the shortcut a docstring names) over many seeds and
measures how often it gives the truth; the claim holds when it fails on the stated share
of seeds. The reference solutions (run by ``bs4-env check``) prove the honest way works.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from functools import cache
from urllib.parse import urljoin

import pytest
from bs4 import BeautifulSoup, Tag

from bs4_env.tasks.model import JSONValue, Task
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import seed_for

pytestmark = pytest.mark.slow
SEEDS = 100


@cache
def _tasks(archetype_id: str) -> tuple[Task, ...]:
    return tuple(build_task(archetype_id, seed_for("train", i), "train") for i in range(SEEDS))


def _hit_rate(archetype_id: str, idiom: Callable[[Task, BeautifulSoup], JSONValue]) -> float:
    """Share of seeds where ``idiom`` returns the truth (an exception counts as a miss)."""
    hits = 0
    for task in _tasks(archetype_id):
        soup = BeautifulSoup(task.html, "lxml")
        with contextlib.suppress(
            AttributeError, KeyError, IndexError, TypeError, ValueError, StopIteration
        ):
            hits += int(idiom(task, soup) == task.truth)
    return hits / SEEDS


def _text(tag: Tag) -> str:
    return " ".join(tag.get_text().split())


def test_page_title_last_title_element_and_first_separator_fail() -> None:
    last = _hit_rate("page_title_suffix", lambda t, s: _text(s.find_all("title")[-1]))
    first_split = _hit_rate("page_title_suffix", lambda t, s: _text(s.title).split(" | ")[0])
    honest = _hit_rate("page_title_suffix", lambda t, s: _text(s.title).rsplit(" | ", 1)[0])
    assert honest == 1.0  # control: the measurement finds the truth where it is
    assert last == 0.0
    assert first_split <= 0.9


def test_meta_description_lookalikes_and_raw_regex_fail() -> None:
    def any_description(task: Task, soup: BeautifulSoup) -> JSONValue:
        tag = soup.find("meta", attrs={"name": re.compile("description")})
        return tag["content"] if isinstance(tag, Tag) else None

    def raw_regex(task: Task, soup: BeautifulSoup) -> JSONValue:
        found = re.search(r'name="description" content="([^"]*)"', task.html)
        return found.group(1) if found else None

    assert _hit_rate("meta_description", any_description) <= 0.8
    assert _hit_rate("meta_description", raw_regex) <= 0.6


def test_opengraph_last_wins_dict_and_property_only_fail() -> None:
    def wanted(task: Task) -> list[str]:
        return list(task.truth)

    def last_wins(task: Task, soup: BeautifulSoup) -> JSONValue:
        metas = {
            str(m.get("property") or m.get("name")): m.get("content") for m in soup.find_all("meta")
        }
        return {key: metas[key] for key in wanted(task)}

    def property_only(task: Task, soup: BeautifulSoup) -> JSONValue:
        out: dict[str, JSONValue] = {}
        for m in soup.find_all("meta", property=True):
            out.setdefault(str(m["property"]), m["content"])
        return {key: out[key] for key in wanted(task)}

    assert _hit_rate("opengraph_fields", last_wins) <= 0.75
    assert _hit_rate("opengraph_fields", property_only) <= 0.75


def test_canonical_raw_href_and_rel_string_compare_fail() -> None:
    def rel_equals(task: Task, soup: BeautifulSoup) -> JSONValue:
        link = next(t for t in soup.find_all("link") if t.get("rel") == "canonical")
        return urljoin(task.start_url, str(link["href"]))

    raw = _hit_rate("canonical_url", lambda t, s: s.find("link", rel="canonical")["href"])
    honest = _hit_rate(
        "canonical_url", lambda t, s: urljoin(t.start_url, s.find("link", rel="canonical")["href"])
    )
    assert honest == 1.0
    assert _hit_rate("canonical_url", rel_equals) == 0.0
    assert raw <= 0.6


def test_hreflang_prefix_match_and_last_match_fail() -> None:
    def code(task: Task) -> str:
        found = re.search(r'language code "([^"]+)"', task.query)
        assert found is not None
        return found.group(1)

    def prefix(task: Task, soup: BeautifulSoup) -> JSONValue:
        stem = code(task).split("-")[0]
        return soup.find("link", hreflang=re.compile(f"^{stem}"))["href"]

    last = _hit_rate("hreflang_url", lambda t, s: s.find_all(hreflang=code(t))[-1]["href"])
    assert _hit_rate("hreflang_url", lambda t, s: s.find(hreflang=code(t))["href"]) == 1.0
    assert last == 0.0
    assert _hit_rate("hreflang_url", prefix) <= 0.6


def test_base_href_ignored_fails_everywhere() -> None:
    def page_relative(task: Task, soup: BeautifulSoup) -> JSONValue:
        text, section = re.findall(r'"([^"]+)"', task.query)[:2]
        heading = next(h for h in soup.find_all("h2") if _text(h) == section)
        link = next(a for a in heading.parent.find_all("a") if _text(a) == text)
        return urljoin(task.start_url, str(link["href"]))

    assert _hit_rate("base_href_link", page_relative) == 0.0


def test_first_telephone_property_fails() -> None:
    microdata = _hit_rate(
        "microdata_contact_phone", lambda t, s: _text(s.find(itemprop="telephone"))
    )
    assert microdata <= 0.4

    def first_rdfa_phone(task: Task, soup: BeautifulSoup) -> JSONValue:
        if task.query_template != "contact_phone":
            return task.truth  # only the phone seeds are measured below
        return _text(soup.find(property="telephone"))

    phone_seeds = sum(t.query_template == "contact_phone" for t in _tasks("rdfa_fields"))
    misses = SEEDS * (1 - _hit_rate("rdfa_fields", first_rdfa_phone))
    assert misses >= 0.3 * phone_seeds


def test_rdfa_displayed_start_date_is_not_the_value() -> None:
    def shown(task: Task, soup: BeautifulSoup) -> JSONValue:
        if task.query_template != "rdfa_event":
            return None
        truth = task.truth
        assert isinstance(truth, dict)
        return {**truth, "startDate": _text(soup.find(property="startDate"))}

    assert _hit_rate("rdfa_fields", shown) == 0.0


def test_microdata_first_itemprop_in_card_fails() -> None:
    def naive(task: Task, soup: BeautifulSoup) -> JSONValue:
        found = re.search(r'named "([^"]+)"', task.query)
        assert found is not None
        name = next(t for t in soup.find_all(itemprop="name") if _text(t) == found.group(1))
        card = name.find_parent(attrs={"itemscope": True})

        def first(prop: str) -> str:
            tag = card.find(itemprop=prop)
            return str(tag["content"]) if tag.name == "meta" else _text(tag)

        brand = card.find(itemprop="brand").find(itemprop="name")["content"]
        return {
            "sku": first("sku"),
            "brand": brand,
            "price": first("price"),
            "priceCurrency": first("priceCurrency"),
            "ratingValue": first("ratingValue"),
        }

    assert _hit_rate("microdata_product", naive) <= 0.25
