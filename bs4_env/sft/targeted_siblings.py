"""Targeted programs for a run of siblings: what follows a heading or a term, up to the next.

A section's paragraphs are the ``<p>`` siblings after its heading up to the next heading; a
term's values are the ``<dd>`` siblings after its ``<dt>`` up to the next term. The program
finds the start by the request's own words (inside the block a heading names, when the request
names one: a product's specification list), walks ``find_next_siblings()`` and stops where
the next one starts. Which start, stop rule and collected tag fit is computed here first.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, soup_line
from bs4_env.sft.targeted_common import TEXT_HELPER, checked_plan, find_call, literals, titled
from bs4_env.tasks.model import Task

_HEADINGS = ("h1", "h2", "h3", "h4")
_BOXES = ("section", "article", "div")
_LISTS = ("dl", "ul", "ol")


def _text(el: Tag) -> str:
    return " ".join(el.get_text().split())


def _run(start: Tag, collect: str, stop: tuple[str, ...], patient: bool) -> list[str]:
    """The texts the program below collects (``patient``: a stop before any value is skipped,
    as a second term sharing the values)."""
    values: list[str] = []
    for el in start.find_next_siblings():
        if el.name in stop:
            if values or not patient:
                break
            continue
        if el.name == collect:
            values.append(_text(el))
    return values


def _code(collect: str, stop: tuple[str, ...], patient: bool, el: str) -> list[str]:
    test = f"{el}.name == {stop[0]!r}" if len(stop) == 1 else f"{el}.name in {stop!r}"
    halt = ["        if answer:", "            break", "        continue"] if patient else []
    return [
        "answer = []",
        f"for {el} in start.find_next_siblings():",
        f"    if {test}:",
        *(halt or ["        break"]),
        f"    if {el}.name == {collect!r}:",
        f"        answer.append(text({el}))",
    ]


def _scopes(soup: BeautifulSoup, found: list[str]) -> Iterator[tuple[list[str], str, Tag, str]]:
    """(lines binding ``box``, its name in code, the box, the literal naming it): blocks named
    by a heading, and the whole page."""
    for lit in found:
        for title in titled(soup, lit, _HEADINGS):
            for name in _BOXES:
                box = title.find_parent(name)
                if box is not None:
                    yield [f"box = {find_call(title, lit)}.find_parent({name!r})"], "box", box, lit
                    break
    yield [], "soup", soup, ""


def _matches(tag: Tag, lit: str) -> bool:
    return tag.string is not None and _text(tag) == lit


def _starts(scope: Tag, var: str, found: list[str], first: Tag) -> Iterator[tuple[str, Tag]]:
    """(code finding it, element) in the scope whose text is a literal and after which the
    first target follows among its siblings: the first such element, or the first whose list
    is the scope's own list (not one nested in it)."""
    for lit in found:
        tags = [t for t in scope.find_all(True) if _matches(t, lit)]
        for tag in [t for t in tags if any(s is first for s in t.find_next_siblings())]:
            plain = find_call(tag, lit, var)
            if next(t for t in tags if t.name == tag.name) is tag:
                yield plain, tag
            holder = next((p for p in tag.parents if p.name in _LISTS), None)
            if holder is None or scope.find(holder.name) is not holder:
                continue
            own = [t for t in tags if t.name == tag.name and t.find_parent(holder.name) is holder]
            if own and own[0] is tag:
                within = f"{var}.find_all({tag.name!r}, string={plain.split('string=', 1)[1]}"
                mine = f"t.find_parent({holder.name!r}) is {var}.find({holder.name!r})"
                yield f"next(t for t in {within} if {mine})", tag


def write_siblings(task: Task, rng: Random, parser: str) -> Plan | None:
    """A plan collecting the siblings after a heading or term, or None."""
    truth = task.truth
    if task.is_multipage or not task.solvable or not isinstance(truth, list) or not truth:
        return None
    if not all(isinstance(v, str) for v in truth):
        return None
    soup = locate.parse(task.html)
    found = literals(task.query)
    firsts = locate.text_matches(soup, truth[0])[:3]
    for lines, var, scope, named in _scopes(soup, found):
        for first in [f for f in firsts if scope is soup or locate.is_within(f, scope)]:
            for find, start in _starts(scope, var, [f for f in found if f != named], first):
                heading = start.name in _HEADINGS
                stops = [_HEADINGS, (start.name,)] if heading else [(start.name,)]
                for stop in stops:
                    for patient in (False, True):
                        if _run(start, first.name, stop, patient) != truth:
                            continue
                        head = ["import json", soup_line(parser), TEXT_HELPER, *lines]
                        head.append(f"start = {find}")
                        el = rng.choice(("el", "sibling", "node"))
                        body = [*_code(first.name, stop, patient, el)]
                        body.append("print(json.dumps(answer, ensure_ascii=False))")
                        inspect = ["for el in start.find_next_siblings()[:10]:", "    print(el)"]
                        plan = checked_plan(task, head, body, inspect, rng, ("siblings",))
                        if plan is not None:
                            return plan
    return None
