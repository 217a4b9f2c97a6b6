"""The text and encoding archetypes defeat the shortcuts their docstrings name.

Each idiom test runs the named shortcut over many seeds and measures how often the grader
rejects its answer; the content helpers are checked directly; every archetype of the four
families gives the same (right) answer under ``lxml`` and ``html5lib`` as under
``html.parser``.
"""

from __future__ import annotations

import html as html_lib
import json
import re
from random import Random
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from bs4 import BeautifulSoup, Tag

from bs4_env.grading.normalize import answers_match
from bs4_env.tasks.html import encoding_pools, pools, price_split, text_pools
from bs4_env.tasks.model import JSONValue, Task
from tests.archetypes.breadth_helpers import (
    heading,
    quoted,
    run_reference,
    soup,
    tasks,
    text_of,
    wrong_share,
)

SEEDS = 100
FAMILY = (
    "scoped_class_in_id",
    "nth_review_interleaved",
    "attribute_selector_links",
    "contains_phrase_card",
    "paragraphs_until_next_heading",
    "dl_term_value",
    "dl_multi_values",
    "ol_displayed_number",
    "item_list_nested",
    "address_br_lines",
    "invisible_chars_name",
    "visible_text_notice",
    "featured_price_split",
    "mojibake_credit_name",
    "entity_refs_display",
    "json_attribute_value",
    "encoded_link_target",
)


def test_every_pool_name_garbles_and_repairs_for_real() -> None:
    names = encoding_pools.ACCENTED_FIRST + encoding_pools.ACCENTED_LAST + pools.CITIES
    for name in names:
        garbled = encoding_pools.mojibake(name)
        assert garbled.encode("cp1252").decode("utf-8") == name
    for name in encoding_pools.ACCENTED_LAST:
        assert encoding_pools.mojibake(name) != name, name


def test_mojibake_refuses_letters_cp1252_cannot_carry() -> None:
    with pytest.raises(UnicodeDecodeError):
        encoding_pools.mojibake("Łukasz")


def test_split_prices_render_as_displayed_and_break_the_space_idiom() -> None:
    rng = Random(7)
    for _ in range(300):
        style = price_split.style(rng)
        amount = price_split.cents(rng)
        page = BeautifulSoup(f"<p>{price_split.markup(rng, style, amount)}</p>", "html.parser")
        shown = " ".join(price_split.displayed(style, amount).split())
        assert " ".join(page.get_text().split()) == shown
        assert " ".join(page.get_text(" ", strip=True).split()) != shown


def test_sprinkled_text_reads_as_the_original_once_cleaned() -> None:
    rng = Random(11)
    drop = {ord(ch): None for ch in text_pools.INVISIBLE}
    for _ in range(300):
        name = pools.product_name(rng)
        raw = BeautifulSoup(f"<h3>{text_pools.sprinkle_invisible(rng, name)}</h3>", "html.parser")
        text = raw.get_text()
        assert " ".join(text.split()) != name
        assert " ".join(text.translate(drop).split()) == name


@pytest.mark.slow
@pytest.mark.parametrize("archetype_id", FAMILY)
@pytest.mark.parametrize("parser", ["lxml", "html5lib"])
def test_other_parsers_agree_on_the_truth(archetype_id: str, parser: str) -> None:
    for task in tasks(archetype_id, 12):
        answer = run_reference(task, parser)
        assert answers_match(answer, task.truth, task.normalization), (task.seed, answer)


def _address(task: Task) -> Tag:
    store = quoted(task, r'postal address of "([^"]+)"\?')
    card = heading(soup(task), store, ("h3",)).find_parent(class_="store-card")
    assert card is not None
    found = card.find("address")
    assert isinstance(found, Tag)
    return found


@pytest.mark.slow
def test_newline_separator_splits_lines_at_inline_tags() -> None:
    def idiom(task: Task) -> JSONValue:
        lines = _address(task).get_text("\n", strip=True).split("\n")
        joined = re.search(r'lines joined by "([^"]*)"', task.query)
        return joined.group(1).join(lines) if joined else lines

    assert wrong_share(tasks("address_br_lines", SEEDS), idiom) >= 0.5


@pytest.mark.slow
def test_collapsing_whitespace_keeps_invisible_characters() -> None:
    def idiom(task: Task) -> JSONValue:
        sku = quoted(task, r'item number "([^"]+)"')
        line = soup(task).find("p", class_="sku", string=f"Item no. {sku}")
        assert isinstance(line, Tag)
        card = line.find_parent(class_="product-card")
        assert card is not None
        name = card.select_one(".name")
        assert name is not None
        return " ".join(name.get_text(strip=True).split())

    assert wrong_share(tasks("invisible_chars_name", SEEDS), idiom) == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("parser", ["html.parser", "html5lib"])
def test_plain_get_text_shows_hidden_and_fallback_content(parser: str) -> None:
    def idiom(task: Task) -> JSONValue:
        title = quoted(task, r'What does the "([^"]+)" notice say\?')
        page = BeautifulSoup(task.html, parser)
        callout = heading(page, title, ("h3",)).find_parent(class_="callout")
        assert callout is not None
        body = callout.select_one(".callout-body")
        assert body is not None
        return text_of(body)

    assert wrong_share(tasks("visible_text_notice", 40), idiom) == 1.0


@pytest.mark.slow
def test_space_separator_breaks_split_prices() -> None:
    def idiom(task: Task) -> JSONValue:
        name = quoted(task, r'featured product "([^"]+)"')
        article = heading(soup(task), name, ("h1",)).find_parent("article")
        assert article is not None
        price = next(p for p in article.select(".price.current") if not p.find_parent("del"))
        return price.get_text(" ", strip=True)

    assert wrong_share(tasks("featured_price_split", SEEDS), idiom) == 1.0


@pytest.mark.slow
def test_garbled_text_as_shown_is_never_the_name() -> None:
    def idiom(task: Task) -> JSONValue:
        section = quoted(task, r'The "([^"]+)" list')
        role = quoted(task, r"listed there as (.+?)\? Give")
        credits = heading(soup(task), section).find_parent("section")
        assert credits is not None
        row = next(li for li in credits.find_all("li") if text_of(li.find(class_="role")) == role)
        return text_of(row.find(class_="name"))

    assert wrong_share(tasks("mojibake_credit_name", SEEDS), idiom) == 1.0


def _menu_card(task: Task) -> tuple[Tag, str]:
    sku = quoted(task, r'item number "([^"]+)"')
    line = soup(task).find("p", class_="item-no", string=f"Item no. {sku}")
    assert isinstance(line, Tag)
    card = line.find_parent(class_="menu-item")
    assert card is not None
    raw = task.html[task.html.index(str(card["id"])) :]
    return card, raw[: raw.index(f"Item no. {sku}")]


@pytest.mark.slow
@pytest.mark.parametrize(("method", "threshold"), [("unescape_again", 0.5), ("raw_regex", 0.95)])
def test_decoding_twice_or_not_at_all_is_wrong(method: str, threshold: float) -> None:
    def idiom(task: Task) -> JSONValue:
        card, raw = _menu_card(task)
        alt = "alt text" in task.query
        if method == "raw_regex":
            pattern = r'alt="([^"]*)"' if alt else r'<h3 class="title">(.*?)</h3>'
            found = re.search(pattern, raw)
            return found.group(1) if found else None
        image, title = card.find("img"), card.find(class_="title")
        assert isinstance(image, Tag) and isinstance(title, Tag)
        return html_lib.unescape(str(image["alt"]) if alt else text_of(title))

    assert wrong_share(tasks("entity_refs_display", SEEDS), idiom) >= threshold


@pytest.mark.slow
def test_regex_over_raw_json_attribute_is_usually_wrong() -> None:
    def idiom(task: Task) -> JSONValue:
        name = quoted(task, r'product tile of "([^"]+)"')
        key = quoted(task, r'value of "([^"]+)"')
        end = task.html.index(f'<h3 class="tile-name">{html_lib.escape(name)}</h3>')
        raw = task.html[task.html.rindex("<div", 0, end) : end]
        found = re.search(rf'"{key}": ("(?:[^"\\]|\\.)*"|\d+)', raw)
        return json.loads(found.group(1)) if found else None

    assert wrong_share(tasks("json_attribute_value", SEEDS), idiom) >= 0.5


@pytest.mark.slow
def test_decoding_the_redirect_twice_is_usually_wrong() -> None:
    percent = [t for t in tasks("encoded_link_target", SEEDS) if "percent" in t.query]
    assert len(percent) >= 30

    def idiom(task: Task) -> JSONValue:
        product = quoted(task, r'offers for "([^"]+)"')
        merchant = quoted(task, r'"Buy at ([^"]+)" link')
        offers = heading(soup(task), product).find_parent("section")
        assert offers is not None
        link = next(a for a in offers.select("a.buy") if text_of(a) == f"Buy at {merchant}")
        return unquote(parse_qs(urlsplit(str(link["href"])).query)["u"][0])

    assert wrong_share(percent, idiom) >= 0.6
