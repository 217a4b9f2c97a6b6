"""Targeted programs for an object pairing two lists on the page: labels and their values.

A chart's category labels and its value labels, say: the program reaches the block by the
request's title for it (the chart's ``<title>``, a heading), selects the keys and the values by
the page's own classes (``g.x-axis text``, ``g.data-labels text``) and pairs them in order, or
by a position both share (the same ``x``). A label drawn on two lines reads as one. Which
selectors and pairing fit is computed here first; the program is run here before it is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, soup_line
from bs4_env.sft.targeted_common import checked_plan, find_call, literals
from bs4_env.tasks.model import Task

_LABEL = 'def label(el):\n    return " ".join(el.get_text(" ").split())'
_BOXES = ("svg", "figure", "section", "table", "dl", "div")


def _label(el: Tag) -> str:
    return " ".join(el.get_text(" ").split())


def _scopes(soup: BeautifulSoup, found: list[str]) -> Iterator[tuple[list[str], Tag]]:
    """(lines binding ``box``, the box): the nearest block around an element titled by a
    request literal."""
    for lit in found:
        for title in locate.text_matches(soup, lit)[:2]:
            if title.string is None:
                continue
            for name in _BOXES:
                box = title.find_parent(name)
                if box is not None:
                    yield [f"box = {find_call(title, lit)}.find_parent({name!r})"], box
                    break


def _selector(box: Tag, value: str) -> str | None:
    """A selector, under the box, of the elements like the one showing ``value``: its tag
    under its classed parent (``g.x-axis text``)."""
    for el in box.find_all(True):
        if _label(el) != value or el.find(el.name) is not None:
            continue
        parent = el.parent
        if isinstance(parent, Tag) and parent.get("class"):
            return f"{locate.simple_selector(parent, all_classes=False)} > {el.name}"
        return locate.simple_selector(el)
    return None


def write_pairs(task: Task, rng: Random, parser: str) -> Plan | None:
    """A plan pairing two lists of labels into the answer object, or None."""
    truth = task.truth
    if task.is_multipage or not task.solvable or not isinstance(truth, dict) or len(truth) < 2:
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in truth.items()):
        return None
    soup = locate.parse(task.html)
    first_key, first_value = next(iter(truth.items()))
    for lines, box in _scopes(soup, literals(task.query)):
        keys_sel, values_sel = _selector(box, first_key), _selector(box, first_value)
        if keys_sel is None or values_sel is None or keys_sel == values_sel:
            continue
        keys, values = box.select(keys_sel), box.select(values_sel)
        in_order = dict(zip(map(_label, keys), map(_label, values), strict=False))
        pick = [f"keys = box.select({keys_sel!r})", f"values = box.select({values_sel!r})"]
        if in_order == truth and len(keys) == len(values):
            body = [*pick, "answer = dict(zip(map(label, keys), map(label, values)))"]
        else:
            body = [
                *pick,
                "answer = {}",
                "for key in keys:",
                '    shown = [v for v in values if v.get("x") == key.get("x")]',
                "    if shown:",
                "        answer[label(key)] = label(shown[0])",
            ]
        head = ["import json", soup_line(parser), _LABEL, *lines]
        show = "print(json.dumps(answer, ensure_ascii=False))"
        inspect = [f"print([label(el) for el in box.select({keys_sel!r})])"]
        plan = checked_plan(task, head, [*body, show], inspect, rng, ("pairs",))
        if plan is not None:
            return plan
    return None
