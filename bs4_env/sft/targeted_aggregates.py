"""Targeted programs for aggregation requests: compute over the items the page shows.

The box is the block under the request's heading (``soup.find("h2", string="...")`` and its
section); the items are this page's repeated elements in it (``div.review-list
article.review``). The program then computes what was asked over every item: the item whose
number field is highest or lowest (``max(cards, key=...)``), how many distinct values an
attribute the request names takes, or how many items carry each label (a field's text or
attribute, or a count of marker icons). Nothing is hard-coded: which items, fields and readings
fit is decided by computing here, and the program is run here before it is kept.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterator
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, soup_line
from bs4_env.sft.targeted_common import TEXT_HELPER, checked_plan, find_call, literals, titled
from bs4_env.tasks.model import Task

_BOXES = ("section", "article", "div", "aside", "main")
_NUMBERS = {
    ".": 'float(re.sub(r"[^\\d.]", "", value))',
    ",": 'float(re.sub(r"[^\\d,]", "", value).replace(",", "."))',
}
_MOST = re.compile(r"\b(highest|most|largest|best|biggest|longest)\b")
_LEAST = re.compile(r"\b(lowest|least|smallest|cheapest|worst|shortest)\b")
Label = Callable[[Tag], str]


def _text(el: Tag) -> str:
    return " ".join(el.get_text().split())


def _boxes(soup: BeautifulSoup, found: list[str]) -> Iterator[tuple[list[str], Tag]]:
    """(lines binding ``box``, the box): the block around a heading the request names."""
    for lit in found:
        for tag in titled(soup, lit):
            for name in _BOXES:
                box = tag.find_parent(name)
                if box is not None:
                    lines = [f"title = {find_call(tag, lit)}", f"box = title.find_parent({name!r})"]
                    yield lines, box
                    break


def _item_selectors(box: Tag) -> Iterator[str]:
    """Selectors of the box's repeated elements: ``tag.class``, under a classed parent too."""
    seen: set[str] = set()
    for tag in box.find_all(True):
        if not tag.get("class"):
            continue
        own = locate.simple_selector(tag, all_classes=False)
        parent = tag.parent
        scoped = (
            f"{locate.simple_selector(parent, all_classes=False)} {own}"
            if isinstance(parent, Tag) and parent is not box and parent.get("class")
            else own
        )
        for selector in (own, scoped):
            if selector not in seen:
                seen.add(selector)
                yield selector


def _number(value: str, mark: str) -> float | None:
    digits = re.sub(r"[^\d" + re.escape(mark) + "]", "", value).replace(",", ".")
    try:
        return float(digits)
    except ValueError:
        return None


def _fields(card: Tag) -> Iterator[str]:
    """Selectors of a card's fields: ``tag.class``, and under its classed parent."""
    for tag in card.find_all(True):
        own = locate.simple_selector(tag, all_classes=False)
        yield own
        parent = tag.parent
        if isinstance(parent, Tag) and parent is not card and parent.get("class"):
            yield f"{locate.simple_selector(parent, all_classes=False)} {own}"


def _single(items: list[Tag], field: str) -> bool:
    """False (first) for a field holding one number: a score, not "3.4 (1,218 reviews)"."""
    texts = [_text(i.select_one(field) or i) for i in items]
    return not all(len(re.findall(r"\d[\d.,]*", t)) == 1 for t in texts)


def _extreme(task: Task, box: Tag) -> Iterator[list[str]]:
    """``best = max(items, key=number of a field)``, then the best item's name field."""
    truth, query = task.truth, task.query.lower()
    pick = "max" if _MOST.search(query) else "min" if _LEAST.search(query) else None
    if not isinstance(truth, str) or pick is None:
        return
    for items_sel in _item_selectors(box):
        items = box.select(items_sel)
        holders = [i for i in items if truth in _text(i)]
        if len(items) < 2 or len(holders) != 1:
            continue
        fields = list(dict.fromkeys(_fields(holders[0])))
        names = [f for f in fields if all(i.select_one(f) for i in items)]
        name = next((f for f in names if _text(holders[0].select_one(f) or box) == truth), None)
        words = set(re.findall(r"[a-z]+", query))
        # Only a field the request names, where one does ("rating" for the highest rating).
        named = [f for f in names if set(re.findall(r"[a-z]+", f)) & words] or names
        for field in sorted(named, key=functools.partial(_single, items)):
            for mark, number in _NUMBERS.items():
                values = [_number(_text(i.select_one(field) or box), mark) for i in items]
                if name is None or None in values:
                    continue
                chosen = (max if pick == "max" else min)(
                    range(len(items)), key=lambda k: values[k] or 0.0
                )
                if items[chosen] is holders[0]:
                    yield [
                        "def number(value):",
                        f"    return {number}",
                        f"items = box.select({items_sel!r})",
                        f"best = {pick}(items, key=lambda item: "
                        f"number(text(item.select_one({field!r}))))",
                        f"answer = text(best.select_one({name!r}))",
                    ]


def _distinct(task: Task, box: Tag) -> Iterator[list[str]]:
    """How many distinct values an attribute the request names takes in the box."""
    if not isinstance(task.truth, int) or isinstance(task.truth, bool):
        return
    named = {
        a
        for t in box.find_all(True)
        for a in t.attrs
        if re.search(rf"\b{re.escape(a)}\b", task.query)
    }
    for attr in sorted(named - {"class", "style"}):
        values = {str(t[attr]) for t in box.find_all(True) if t.has_attr(attr)}
        if len(values) == task.truth:
            find = f"box.find_all(attrs={{{attr!r}: True}})"
            yield [f"answer = len({{el[{attr!r}] for el in {find}}})"]


def _count(selector: str, field: Tag) -> str:
    return str(len(field.select(selector)))


def _attr(attr: str, field: Tag) -> str:
    return str(field.get(attr, ""))


def _first_number(attr: str, field: Tag) -> str:
    return "".join(re.findall(r"\d+", str(field.get(attr, "")))[:1])


def _labels(item: Tag) -> Iterator[tuple[str, str, Label]]:
    """(field selector, code reading ``field``, the same reading here) for one item's fields."""
    for tag in item.find_all(True):
        if not tag.get("class"):
            continue
        sel = locate.simple_selector(tag, all_classes=False)
        yield sel, "text(field)", _text
        inner = [locate.simple_selector(c) for c in tag.find_all(True) if c.get("class")]
        for child in dict.fromkeys(inner):
            yield sel, f"str(len(field.select({child!r})))", functools.partial(_count, child)
        for attr in [a for a in tag.attrs if a not in ("class", "style")]:
            yield sel, f"field[{attr!r}]", functools.partial(_attr, attr)
            first = f're.search(r"\\d+", field[{attr!r}]).group()'
            yield sel, first, functools.partial(_first_number, attr)


def _grouped(task: Task, box: Tag) -> Iterator[list[str]]:
    """How many items carry each label: ``counts[label] = counts.get(label, 0) + 1``."""
    truth = task.truth
    if not (isinstance(truth, dict) and truth and all(type(v) is int for v in truth.values())):
        return
    wanted = Counter({str(k): v for k, v in truth.items()})
    for items_sel in _item_selectors(box):
        items = box.select(items_sel)
        if len(items) != sum(wanted.values()):
            continue
        for sel, code, read in _labels(items[0]):
            fields = [i.select_one(sel) for i in items]
            if all(fields) and Counter(read(f) for f in fields if f) == wanted:
                yield [
                    "answer = {}",
                    f"for item in box.select({items_sel!r}):",
                    f"    field = item.select_one({sel!r})",
                    f"    label = {code}",
                    "    answer[label] = answer.get(label, 0) + 1",
                ]


def write_aggregate(task: Task, rng: Random, parser: str) -> Plan | None:
    """A plan computing the answer over the items of the request's block, or None."""
    if task.is_multipage or not task.solvable or isinstance(task.truth, list):
        return None
    soup = locate.parse(task.html)
    for lines, box in list(_boxes(soup, literals(task.query)))[:3]:
        for maker in (_extreme, _distinct, _grouped):
            for body in list(maker(task, box))[:3]:
                show = "print(json.dumps(answer, ensure_ascii=False))"
                uses_re = re.search(r"\bre\.", "".join(body))
                imports = ["import re", "import json"] if uses_re else ["import json"]
                helper = [TEXT_HELPER] if "text(" in "".join(body) else []
                head = [*imports, soup_line(parser), *helper, *lines]
                inspect = [
                    "for el in box.find_all(True)[:20]:",
                    '    print(el.name, el.attrs, el.get_text(" ", strip=True)[:40])',
                ]
                plan = checked_plan(task, head, [*body, show], inspect, rng, ("aggregate",))
                if plan is not None:
                    return plan
    return None
