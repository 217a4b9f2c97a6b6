"""Targeted programs for object answers: one record's fields, or a list of row objects.

The box is reached from the request's own words on this page: a heading with its text, an
element whose attribute is the quoted value (a form's action, an id), or the element whose
text contains a quoted phrase. Inside it, each field is read with a selector of this page's
classes (``text(card.select_one("h3.name"))``), or each row element's attributes and text
(``{"src": el.get("data-src") or el.get("src"), "alt": el.get("alt", "")}``). Which fields and
rows fit is decided by reading the page here against the truth.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.episode.prompt import user_prompt
from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, soup_line
from bs4_env.sft.targeted_common import TEXT_HELPER, checked_plan, find_call, literals, titled
from bs4_env.tasks.model import Task

_DATA_ATTRS = ("value", "content", "datetime")


def _text(el: Tag) -> str:
    return " ".join(el.get_text().split())


def _anchors(soup: BeautifulSoup, query_literals: list[str]) -> Iterator[tuple[str, Tag, str]]:
    """(how the code finds it, the element, its kind) for each request literal on the page."""
    for literal in query_literals:
        for tag in titled(soup, literal):
            yield find_call(tag, literal), tag, "heading"
        for tag, attr in locate.attribute_matches(soup, literal)[:2]:
            if attr == "id":
                yield f"soup.find(id={literal!r})", tag, "attr"
            else:
                yield f"soup.find({tag.name!r}, attrs={{{attr!r}: {literal!r}}})", tag, "attr"
        strings = soup.find_all(string=lambda s, lit=literal: lit in s, limit=2)
        if len(strings) == 1 and isinstance(strings[0].parent, Tag):
            find = f"soup.find(string=lambda s: s and {literal!r} in s)"
            yield find, strings[0].parent, "phrase"


def _boxes(soup: BeautifulSoup, task_query: str, targets: list[Tag]) -> list[tuple[str, Tag]]:
    """(expression for the box, the box) that holds every target, smallest box first: the
    fields are then read by what they are (``h3.name``), not by which card holds them."""
    found: list[tuple[str, Tag]] = []
    for find, tag, kind in _anchors(soup, literals(task_query)):
        if kind == "attr" and all(locate.is_within(t, tag) for t in targets):
            found.append((find, tag))
            continue
        box = locate.container(tag, targets)
        if box is not None:
            found.append((f"{find}.find_parent({box.name!r})", box))
    found += list(_cards(found, literals(task_query), targets))
    return sorted(found, key=lambda pair: len(pair[1].find_all(True)))


def _cards(
    boxes: list[tuple[str, Tag]], phrases: list[str], targets: list[Tag]
) -> Iterator[tuple[str, Tag]]:
    """Inside a box, the first card (an element like the targets' own container) whose
    text mentions one of the request's phrases: ``next(c for c in box.select(...) if ...)``."""
    card = targets[0]
    for other in targets[1:]:
        card = locate.lowest_common_ancestor(card, other) or card
    if len(targets) == 1 and card.parent is not None and isinstance(card.parent, Tag):
        card = card.parent
    probe = locate.simple_selector(card)
    for find, box in boxes:
        if not locate.is_within(card, box):
            continue
        for phrase in phrases:
            hits = [c for c in box.select(probe) if phrase in _text(c)]
            if hits and hits[0] is card and phrase not in _text(box.find_all(True)[0]):
                pick = f"next(c for c in box.select({probe!r}) if {phrase!r} in text(c))"
                yield f"{find}\nbox = {pick}", card


def _value_tags(soup: BeautifulSoup, value: object) -> list[tuple[Tag, str | None]]:
    """Elements showing the value as text, or holding it in an attribute (for a number: only
    an attribute meant for data, so that a ``colspan`` equal to it by chance is not read)."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return []
    shown = str(value)
    found: list[tuple[Tag, str | None]] = [(t, None) for t in locate.text_matches(soup, shown)[:3]]
    pairs = locate.attribute_matches(soup, shown)
    if isinstance(value, int):
        pairs = [(t, a) for t, a in pairs if a.startswith("data-") or a in _DATA_ATTRS]
    return found + pairs[:3]


def _keys_given(task: Task, keys: Iterable[object]) -> bool:
    """Whether the prompt names every key (else the keys are page data, and a record with
    them written in would be half the answer typed in)."""
    prompt = user_prompt(task)
    return all(isinstance(k, str) and k in prompt for k in keys)


def _read(var: str, attr: str | None, value: object) -> str:
    read = f"{var}[{attr!r}]" if attr else f"text({var})"
    return f"int({read})" if isinstance(value, int) else read


def _record(task: Task, rng: Random, parser: str) -> Plan | None:
    """A dict of scalar fields read inside one box."""
    truth = task.truth
    if not isinstance(truth, dict) or not truth or not _keys_given(task, truth):
        return None
    soup = locate.parse(task.html)
    options = {key: _value_tags(soup, value) for key, value in truth.items()}
    if not all(options.values()):
        return None
    firsts = [found[0][0] for found in options.values()]
    avoid = [v for v in map(str, truth.values()) if len(v) >= 4]
    for find, box in _boxes(soup, task.query, firsts):
        fields = []
        for key, found in options.items():
            for tag, attr in found:
                if not locate.is_within(tag, box):
                    continue
                sel = locate.selector_for(box, [tag], avoid)
                # An id inside the box names the answer's own element: not reading the page.
                if sel is not None and "#" not in sel:
                    fields.append(
                        f"    {key!r}: {_read(f'box.select_one({sel!r})', attr, truth[key])},"
                    )
                    break
            else:
                break
        else:
            head = ["import json", soup_line(parser), TEXT_HELPER, f"box = {find}"]
            body = ["answer = {", *fields, "}", "print(json.dumps(answer, ensure_ascii=False))"]
            inspect = [
                "for el in box.find_all(True)[:15]:",
                '    print(el.name, el.get("class"), text(el)[:50])',
            ]
            if (plan := checked_plan(task, head, body, inspect, rng, ("record",))) is not None:
                return plan
    return None


Reader = Callable[[Tag], object]


def _attr(first: str, second: str | None, tag: Tag) -> object:
    """``tag.get(first, "")``, or ``tag.get(first) or tag.get(second)``."""
    return tag.get(first, "") if second is None else tag.get(first) or tag.get(second)


def _readers(el: Tag) -> list[tuple[str, Reader]]:
    """Ways to read one field off a row element (code, and the same reading here)."""
    names = [a for a in el.attrs if a not in ("class", "style")]
    out: list[tuple[str, Reader]] = [("text(el)", _text)]
    for a in names:
        out.append((f"el.get({a!r}, '')", functools.partial(_attr, a, None)))
        for b in names:
            if a != b:
                code = f"el.get({a!r}) or el.get({b!r})"
                out.append((code, functools.partial(_attr, a, b)))
    out.append(("el.name", lambda t: t.name))
    typed = "el.get('type', 'text') if el.name == 'input' else el.name"
    out.append((typed, lambda t: t.get("type", "text") if t.name == "input" else t.name))
    return out


def _rows(task: Task, rng: Random, parser: str) -> Plan | None:
    """A list of row objects, one per element the box's selector picks."""
    truth = task.truth
    if not (isinstance(truth, list) and truth and all(isinstance(r, dict) for r in truth)):
        return None
    keys = list(truth[0])
    if any(list(r) != keys for r in truth) or not _keys_given(task, keys):
        return None
    soup = locate.parse(task.html)
    for key in keys:
        per_row = [_value_tags(soup, r[key]) for r in truth]
        if not all(per_row) or any(len({id(t) for t, _ in found}) != 1 for found in per_row):
            continue  # this key does not pin each row to one element
        elements = [found[0][0] for found in per_row]
        readers: list[str] = []
        for other in keys:
            fits = [
                code
                for code, read in _readers(elements[0])
                if all(read(e) == r[other] for e, r in zip(elements, truth, strict=True))
            ]
            if not fits:
                break
            readers.append(f"{other!r}: {fits[0]}")
        else:
            for find, box in [*_boxes(soup, task.query, elements), ("soup", soup)]:
                if (sel := locate.selector_for(box, elements)) is None:
                    continue
                var = "soup" if find == "soup" else "box"
                head = ["import json", soup_line(parser), TEXT_HELPER]
                head += [] if var == "soup" else [f"box = {find}"]
                body = [
                    f"answer = [{{{', '.join(readers)}}} for el in {var}.select({sel!r})]",
                    "print(json.dumps(answer, ensure_ascii=False))",
                ]
                inspect = [f"for el in {var}.select({sel!r})[:8]:", "    print(el)"]
                if (plan := checked_plan(task, head, body, inspect, rng, ("rows",))) is not None:
                    return plan
            return None
    return None


def write_record(task: Task, rng: Random, parser: str) -> Plan | None:
    """A plan for an object answer or a list of row objects, or None."""
    if task.is_multipage or not task.solvable:
        return None
    return _record(task, rng, parser) or _rows(task, rng, parser)
