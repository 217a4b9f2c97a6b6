"""Targeted programs that select the answer's elements by what they are and skip what a reader
would not see: a value split over child tags, a hidden variant, a crossed-out old price.

The scope is reached by the request's own words (``scopes``: a heading and its block, the
element whose attribute is a quoted value); the elements by a selector made of the request's
class names or the page's own classes and tags (``box.select("span.price")``); then a
``shown`` filter drops elements hidden by a ``hidden`` attribute or ``display:none`` (on them
or an ancestor), struck-out ones too if needed, or those of a nested block like the scope. A
single answer must be the one element left, a list every one in order, each read as the request
asks (``readings``: the text, repaired, or an attribute worked out). All is computed here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from itertools import islice
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, soup_line
from bs4_env.sft.readings import EL, IMPORTS, Read, attribute_readings, text_readings
from bs4_env.sft.scopes import picks, scopes
from bs4_env.sft.targeted import truth_strings
from bs4_env.sft.targeted_common import TEXT_HELPER, checked_plan, literals
from bs4_env.tasks.model import Task

_SHOWN = [
    "def shown(el):",
    "    for node in [el, *el.parents]:",
    '        style = (node.get("style") or "").replace(" ", "").lower()',
    '        if node.has_attr("hidden") or "display:none" in style:',
    "            return False",
    "    return True",
]
Keep = Callable[[Tag], bool]
Found = tuple[list[str], str, str, str, bool]
"""(lines binding the scope, the selection, the filter, the reading, whether a list)."""


def _shown(el: Tag) -> bool:
    for node in [el, *el.parents]:
        style = str(node.get("style") or "").replace(" ", "").lower()
        if node.has_attr("hidden") or "display:none" in style:
            return False
    return True


def _unstruck(el: Tag) -> bool:
    return _shown(el) and el.find_parent(["s", "del"]) is None


_FILTERS: tuple[tuple[str, Keep], ...] = (
    ("", lambda el: True),
    (f"shown({EL})", _shown),
    (f'shown({EL}) and {EL}.find_parent(["s", "del"]) is None', _unstruck),
)


def _owner(attr: str, el: Tag) -> Tag | None:
    return next((p for p in el.parents if p.has_attr(attr)), None)


def _own(box: Tag, attr: str | None) -> list[tuple[str, Keep]]:
    """Elements of the box itself, not of a nested element named the same way (a unit in
    a unit): their nearest ancestor carrying the box's attribute is the box."""
    if attr is None:
        return []
    code = f"{EL}.find_parent(attrs={{{attr!r}: True}}) is box"
    return [(code, lambda el: _owner(attr, el) is box)]


def _safely(read: Read, el: Tag) -> str | None:
    """The reading here, or None where this element does not have what it reads."""
    try:
        return read(el)
    except (KeyError, IndexError, ValueError, TypeError, UnicodeError):
        return None


def _targets(soup: BeautifulSoup, value: str, read: Read) -> list[Tag]:
    """The deepest elements that, read so, give ``value`` (a text split over tags too)."""
    found = [t for t in soup.find_all(True) if _safely(read, t) == value]
    return [t for t in found if not any(locate.is_within(o, t) for o in found)][:4]


def _attr(attr: str, el: Tag) -> str:
    return str(el.get(attr))


def _attribute(soup: BeautifulSoup, values: list[str]) -> tuple[list[Tag], str] | None:
    """The elements holding the values in one attribute, in order (for href, src lists)."""
    pairs = [locate.attribute_matches(soup, v)[:1] for v in values]
    if not all(pairs) or len({p[0][1] for p in pairs}) != 1:
        return None
    return [p[0][0] for p in pairs], pairs[0][0][1]


def _programs(task: Task, soup: BeautifulSoup) -> Iterator[Found]:
    """Programs for the first reading that some elements of the page give the answer by."""
    many = isinstance(task.truth, list)
    values = [str(v) for v in task.truth] if many else [str(task.truth)]
    by_attr = _attribute(soup, values) if many else None
    if by_attr is not None:
        reading: Read = functools.partial(_attr, by_attr[1])
        yield from _selections(task, soup, ([], f"{EL}[{by_attr[1]!r}]", reading), by_attr[0][:1])
        return
    readings: list[tuple[list[str], str, Read]]
    readings = [([], c, r) for c, r in text_readings(locate.quoted_literals(task.query))]
    if not many:
        readings += [
            (f, c, r) for c, f, r in attribute_readings(soup, task.query, literals(task.query))
        ]
    for first, code, read in readings:
        if targets := _targets(soup, values[0], read):
            yield from _selections(task, soup, (first, code, read), targets)
            return


def _selections(
    task: Task, soup: BeautifulSoup, reading: tuple[list[str], str, Read], targets: list[Tag]
) -> Iterator[Found]:
    found, many = literals(task.query), isinstance(task.truth, list)
    values = [str(v) for v in task.truth] if many else [str(task.truth)]
    first, read_code, read = reading
    avoid = truth_strings(task.truth)
    for target in targets:
        for lines, box, attr_of_box in scopes(soup, found, task.query, target):
            var = "box" if lines else "soup"
            for pick_code, pick in picks(target, found):
                picked = pick(box)
                if (many and len(picked) < len(values)) or any(v in pick_code for v in avoid):
                    continue
                for code, keep in [*_FILTERS, *_own(box, attr_of_box)]:
                    # One value: the one element left (not the first of several by chance).
                    kept = (el for el in picked if keep(el))
                    got = [_safely(read, el) for el in (kept if many else islice(kept, 2))]
                    if got == values:
                        selection = pick_code.replace("{var}", var)
                        yield [*lines, *first], selection, code, read_code, many
                        break


def _render(found: Found, name: str, loop: bool) -> list[str]:
    """The program's body: a comprehension (``next(...)`` for one value) or a loop."""
    _, picked, keep, read, many = found
    keep, read = keep.replace(EL, name), read.replace(EL, name)
    helper = _SHOWN if "shown(" in keep else []
    if not loop:
        where = f" if {keep}" if keep else ""
        pick = f"{read} for {name} in {picked}{where}"
        return [*helper, f"answer = [{pick}]" if many else f"answer = next({pick})"]
    take = ["    answer.append(" + read + ")"] if many else [f"    answer = {read}", "    break"]
    negated = f"not ({keep})" if " and " in keep else f"not {keep}"
    test = [f"    if {negated}:", "        continue"] if keep else []
    start = ["answer = []"] if many else []
    return [*helper, *start, f"for {name} in {picked}:", *test, *take]


def write_visible(task: Task, rng: Random, parser: str) -> Plan | None:
    """A plan selecting the answer's visible elements, or None."""
    truth = task.truth
    if task.is_multipage or not task.solvable:
        return None
    if not (isinstance(truth, str) or (isinstance(truth, list) and truth)):
        return None
    if isinstance(truth, list) and not all(isinstance(v, str) for v in truth):
        return None
    soup = locate.parse(task.html)
    name, loop = rng.choice(("el", "el", "tag", "node")), rng.random() < 0.3
    for found in islice(_programs(task, soup), 3):
        lines, body = found[0], _render(found, name, loop)
        code = "\n".join([*lines, *body])
        imports = [line for key, line in IMPORTS.items() if re.search(key, code)]
        head = [*sorted(imports), "import json", soup_line(parser), TEXT_HELPER, *lines]
        show = "print(json.dumps(answer, ensure_ascii=False))"
        scope = "box" if any(line.startswith("box =") for line in lines) else "soup"
        inspect = [f"print(str({scope})[:1500])"] if scope == "box" else None
        plan = checked_plan(task, head, [*body, show], inspect, rng, ("visible",))
        if plan is not None:
            return plan
    return None
