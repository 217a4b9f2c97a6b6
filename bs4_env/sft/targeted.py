"""Targeted programs: code written for this request and this page, with its literals.

The writer finds the element(s) holding the answer (``locate``), then writes what a person
would after looking: the request's heading as an anchor (``soup.find("h2", string="...")``),
its container, and a selector made of this page's classes and ids; or a page-wide selector
when no anchor applies. Many episodes first print the candidate elements, then extract. Each
candidate program is run here first and kept only if it prints the answer.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, Step, answer_of, host_run, soup_line
from bs4_env.tasks.model import Task

_TEXT_STYLES = ('" ".join({v}.get_text().split())', '{v}.get_text(" ", strip=True)')
_INSPECT_LIMIT = 12


def _targets(soup: BeautifulSoup, truth: object) -> list[tuple[list[Tag], str | None]]:
    """Candidate target lists, each with the attribute holding the value (None: the text)."""
    if isinstance(truth, str):
        found: list[tuple[list[Tag], str | None]] = [
            ([t], None) for t in locate.text_matches(soup, truth)[:2]
        ]
        found += [([t], a) for t, a in locate.attribute_matches(soup, truth)[:2]]
        return found
    if not (isinstance(truth, list) and truth and all(isinstance(v, str) for v in truth)):
        return []
    by_text = [locate.text_matches(soup, v) for v in truth]
    out: list[tuple[list[Tag], str | None]] = []
    if all(by_text):
        out.append((_in_order(by_text), None))
    by_attr = [locate.attribute_matches(soup, v) for v in truth]
    if all(by_attr):
        name = by_attr[0][0][1]
        chosen = [[t for t, a in pairs if a == name] for pairs in by_attr]
        if all(chosen):
            out.append((_in_order(chosen), name))
    return [(tags, attr) for tags, attr in out if tags]


def _in_order(options: Sequence[list[Tag]]) -> list[Tag]:
    """One element per value, each after the previous one in document order ([] if none)."""
    order = {id(t): i for i, t in enumerate(options[0][0].find_parents()[-1].find_all(True))}
    chosen: list[Tag] = []
    last = -1
    for tags in options:
        later = [t for t in tags if order.get(id(t), -1) > last]
        if not later:
            return []
        chosen.append(later[0])
        last = order[id(later[0])]
    return chosen


def _anchor_lines(anchor: Tag, literal: str, box: Tag) -> list[str]:
    if anchor.string is not None and anchor.string == literal:
        find = f"soup.find({anchor.name!r}, string={literal!r})"
    else:
        find = (
            f"soup.find(lambda t: t.name == {anchor.name!r} and "
            f'" ".join(t.get_text().split()) == {literal!r})'
        )
    return [f"title = {find}", f"box = title.find_parent({box.name!r})"]


def _value(var: str, attr: str | None, rng: Random) -> str:
    if attr is not None:
        return f"{var}[{attr!r}]" if rng.random() < 0.5 else f"{var}.get({attr!r})"
    return rng.choice(_TEXT_STYLES).format(v=var)


def _extract(scope: str, selector: str, many: bool, attr: str | None, rng: Random) -> list[str]:
    if many:
        var = rng.choice(("el", "tag", "item"))
        return [
            "import json",
            f"values = [{_value(var, attr, rng)} for {var} in {scope}.select({selector!r})]",
            "print(json.dumps(values, ensure_ascii=False))",
        ]
    if selector.startswith("#") and " " not in selector and rng.random() < 0.5:
        found = f"{scope}.find(id={selector[1:]!r})"
    else:
        found = f"{scope}.select_one({selector!r})"
    return [f"el = {found}", f"print({_value('el', attr, rng)})"]


def _inspect(scope: str, targets: list[Tag], root: Tag) -> str | None:
    """Print the candidates (elements like the target, in the scope), if the target is among
    the first few."""
    first = targets[0]
    probe = locate.simple_selector(first, all_classes=False)
    if not any(t is first for t in root.select(probe)[:_INSPECT_LIMIT]):
        return None
    return (
        f"for el in {scope}.select({probe!r})[:{_INSPECT_LIMIT}]:\n"
        f'    print(el.get("id"), el.get("class"), el.get_text(" ", strip=True)[:60])'
    )


def _label_lines(soup: BeautifulSoup, literals: list[str], target: Tag) -> list[str] | None:
    """``label = soup.find(...)`` and the target as the label's next sibling of its tag."""
    for literal in literals:
        for label in locate.text_matches(soup, literal)[:3]:
            if label.find_next_sibling(target.name) is not target:
                continue
            if label.string is not None and label.string == literal:
                find = f"soup.find({label.name!r}, string={literal!r})"
            else:
                find = f"soup.find({label.name!r}, string=lambda s: s and s.strip() == {literal!r})"
            return [f"label = {find}", f"el = label.find_next_sibling({target.name!r})"]
    return None


def write_targeted(task: Task, rng: Random, parser: str) -> Plan | None:
    """A targeted plan for a string or list-of-strings answer, or None."""
    if task.is_multipage or not task.solvable:
        return None
    soup = locate.parse(task.html)
    literals = locate.quoted_literals(task.query)
    anchor = locate.heading_anchor(soup, literals)
    avoid = truth_strings(task.truth)
    for targets, attr in _targets(soup, task.truth):
        many = isinstance(task.truth, list)
        if not many and (lines := _label_lines(soup, literals, targets[0])) is not None:
            code = "\n".join([soup_line(parser), *lines, f"print({_value('el', attr, rng)})"])
            out = host_run(task, code)
            if out is not None and _answers(out, task.truth, many):
                return Plan("targeted", (Step("run_python", code),), "text", tags=("label",))
        wheres: list[tuple[list[str], str, Tag]] = []
        box = locate.container(anchor[1], targets) if anchor is not None else None
        rel = locate.selector_for(box, targets, avoid) if box is not None else None
        if anchor is not None and box is not None and rel is not None:
            wheres.append((_anchor_lines(anchor[1], anchor[0], box), rel, box))
        if (absolute := locate.selector_for(soup, targets, avoid)) is not None:
            wheres.append(([], absolute, soup))
        for prefix, selector, root in wheres:
            scope = "box" if prefix else "soup"
            head = [soup_line(parser), *prefix]
            code = "\n".join(head + _extract(scope, selector, many, attr, rng))
            out = host_run(task, code)
            if out is None or not _answers(out, task.truth, many):
                continue
            steps = []
            inspect = _inspect(scope, targets, root) if rng.random() < 0.6 else None
            if inspect is not None:
                steps.append(Step("run_python", "\n".join([*head, inspect])))
            steps.append(Step("run_python", code))
            tags = ("inspect",) if inspect else ()
            return Plan("targeted", tuple(steps), "json" if many else "text", tags=tags)
    return None


def truth_strings(truth: object) -> list[str]:
    """The answer's strings (inside lists and objects too) long enough that finding one in
    code means the code has the answer written in (short ones, like "3", occur by chance)."""
    if isinstance(truth, dict | list):
        # Inside objects, short or lowercase words ("email", "textarea") are names a program
        # may use for its own reasons; only longer, data-like values count.
        values = truth.values() if isinstance(truth, dict) else truth
        nested = [s for v in values for s in truth_strings(v)]
        if isinstance(truth, dict):
            return [s for s in nested if len(s) >= 8 and not (s.isalpha() and s.islower())]
        return nested
    return [truth] if isinstance(truth, str) and len(truth.strip()) >= 4 else []


def _answers(stdout: str, truth: object, many: bool) -> bool:
    try:
        value = answer_of(stdout, "json" if many else "text")
    except json.JSONDecodeError:
        return False
    if many:
        return isinstance(value, list) and [locate.collapse(str(v)) for v in value] == [
            locate.collapse(str(v))
            for v in truth  # type: ignore[attr-defined]
        ]
    return locate.collapse(str(value)) == locate.collapse(str(truth))
