"""Targeted programs for data kept as JSON: in a ``<script>``, a ``window.X = ...`` state or an
element's JSON attribute (``data-props``).

The program loads that JSON the way the page holds it (the script by its id or type, the state
by its variable's name, every element carrying the attribute), walks it for the first object
whose field equals one of the request's own values (``o.get("name") == "Mesa Scanner X"``) and
reads the answer off that object by key: one value, one field of every item of a list, or a
table's rows keyed by its column labels. Which source, object and keys fit is decided by
reading the JSON here against the truth; the program is run here before it is kept.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from random import Random
from typing import Any

from bs4 import BeautifulSoup

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, soup_line
from bs4_env.sft.targeted_common import checked_plan, literals
from bs4_env.tasks.model import Task

_ASSIGN = re.compile(r"((?:window\.)?[A-Za-z_$][\w$]*)\s*=\s*(?=JSON\.parse\(|[{\[])")
_WALK = [
    "def walk(value):",
    "    if isinstance(value, dict):",
    "        yield value",
    "        for child in value.values():",
    "            yield from walk(child)",
    "    elif isinstance(value, list):",
    "        for child in value:",
    "            yield from walk(child)",
]
_DEPTH = 4


def _walk(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for child in value.values():
            yield from _walk(child)
    elif isinstance(value, list):
        for child in value:
            yield from _walk(child)


def _assigned(body: str, name: str) -> Any:
    """The value a script assigns to ``name`` (an object literal or ``JSON.parse("...")``)."""
    rest = body.split(f"{name} =", 1)[1].lstrip()
    if rest.startswith("JSON.parse("):
        text, _ = json.JSONDecoder().raw_decode(rest[len("JSON.parse(") :])
        return json.loads(text)
    return json.JSONDecoder().raw_decode(rest)[0]


def _sources(soup: BeautifulSoup, found: list[str]) -> Iterator[tuple[list[str], Any]]:
    """(lines binding ``data``, the same data read here) for each JSON the page holds: an
    element's JSON attribute is read off the element a request literal names, if one does."""
    for script in soup.find_all("script"):
        body = script.string or ""
        kind, element_id = script.get("type"), script.get("id")
        try:
            if isinstance(element_id, str) and "json" in str(kind):
                data = json.loads(body)
                yield [f"data = json.loads(soup.find('script', id={element_id!r}).string)"], data
            elif isinstance(kind, str) and "json" in kind:
                data = [json.loads(s.string or "") for s in soup.find_all("script", type=kind)]
                find = f"soup.find_all('script', type={kind!r})"
                yield [f"data = [json.loads(s.string) for s in {find}]"], data
            for match in _ASSIGN.finditer(body):
                name = match.group(1)
                if f"{name} =" in body and body.count(f"{name} =") == 1:
                    yield _assign_lines(name, body), _assigned(body, name)
        except (ValueError, IndexError):
            continue
    seen: set[str] = set()
    for tag in soup.find_all(True):
        for attr, value in tag.attrs.items():
            if attr in seen or not isinstance(value, str) or value.lstrip()[:1] not in "[{":
                continue
            seen.add(attr)
            yield from _attribute_sources(soup, attr, found)


def _attribute_sources(
    soup: BeautifulSoup, attr: str, found: list[str]
) -> Iterator[tuple[list[str], Any]]:
    """The JSON attribute of the element a request literal names, then of every element."""
    holders = [t for t in soup.find_all(True) if t.has_attr(attr)]
    with contextlib.suppress(ValueError):
        for tag in holders:
            for other, lit in [(o, v) for o, v in tag.attrs.items() if v in found]:
                if soup.find(tag.name, attrs={other: lit}) is tag:
                    find = f"soup.find({tag.name!r}, attrs={{{other!r}: {lit!r}}})"
                    yield [f"data = json.loads({find}[{attr!r}])"], json.loads(str(tag[attr]))
        data = [json.loads(str(t[attr])) for t in holders]
        find = f"soup.find_all(attrs={{{attr!r}: True}})"
        yield [f"data = [json.loads(el[{attr!r}]) for el in {find}]"], data


def _assign_lines(name: str, body: str) -> list[str]:
    rest = body.split(f"{name} =", 1)[1].lstrip()
    lines = [
        f"script = soup.find('script', string=lambda s: s and {name + ' ='!r} in s)",
        f"rest = script.string.split({name + ' ='!r}, 1)[1].lstrip()",
    ]
    if rest.startswith("JSON.parse("):
        return [
            *lines,
            'text, _ = json.JSONDecoder().raw_decode(rest[len("JSON.parse(") :])',
            "data = json.loads(text)",
        ]
    return [*lines, "data, _ = json.JSONDecoder().raw_decode(rest)"]


def _paths(value: Any, depth: int = _DEPTH) -> Iterator[tuple[list[str], Any]]:
    """(keys, value) for every value reachable by dict keys alone, shallow first."""
    frontier: list[tuple[list[str], Any]] = [([], value)]
    for _ in range(depth + 1):
        yield from frontier
        frontier = [
            ([*keys, k], v)
            for keys, node in frontier
            if isinstance(node, dict)
            for k, v in node.items()
        ]


def _index(var: str, keys: list[str]) -> str:
    return var + "".join(f"[{k!r}]" for k in keys)


def _readings(start: Any, var: str, truth: Any) -> Iterator[str]:
    """Expressions reading ``truth`` off ``var`` (the object ``start`` here)."""
    for keys, node in _paths(start):
        ref = _index(var, keys)
        if keys and type(node) is type(truth) and node == truth:
            yield ref
        if not (isinstance(node, list) and isinstance(truth, list) and node):
            continue
        if all(isinstance(x, dict) for x in node) and len(node) == len(truth):
            for key in node[0]:
                if [x.get(key) for x in node] == truth:
                    yield f"[x[{key!r}] for x in {ref}]"
    if isinstance(truth, list) and truth and isinstance(truth[0], dict):
        yield from _tables(start, var, truth)


def _tables(start: Any, var: str, truth: list[Any]) -> Iterator[str]:
    """Rows keyed by column labels, from a ``columns`` list and a ``rows`` list."""
    for keys, node in _paths(start, _DEPTH - 1):
        if not isinstance(node, dict):
            continue
        lists = [(k, v) for k, v in node.items() if isinstance(v, list) and v]
        for (ck, cols), (rk, rows) in [(a, b) for a in lists for b in lists if a is not b]:
            ref = _index(var, keys)
            plain = all(isinstance(c, str) for c in cols) and all(isinstance(r, list) for r in rows)
            if plain and [dict(zip(cols, r, strict=False)) for r in rows] == truth:
                yield f"[dict(zip({ref}[{ck!r}], row)) for row in {ref}[{rk!r}]]"
            if all(isinstance(c, dict) for c in cols) and all(isinstance(r, dict) for r in rows):
                for label in cols[0]:
                    for key in cols[0]:
                        rebuilt = [{c[label]: r.get(c[key]) for c in cols} for r in rows]
                        if label != key and rebuilt == truth:
                            row = f"{{c[{label!r}]: row[c[{key!r}]] for c in {ref}[{ck!r}]}}"
                            yield f"[{row} for row in {ref}[{rk!r}]]"


def _anchors(data: Any, found: list[str]) -> Iterator[tuple[str, Any]]:
    """(condition, first object meeting it): a field equal to a request literal."""
    objects = list(_walk(data))
    for lit in found:
        keys = dict.fromkeys(k for o in objects for k, v in o.items() if v == lit)
        for key in keys:
            first = next(o for o in objects if o.get(key) == lit)
            yield f"o.get({key!r}) == {lit!r}", first


def write_script_data(task: Task, rng: Random, parser: str) -> Plan | None:
    """A plan reading the answer out of the page's embedded JSON, or None."""
    if task.is_multipage or not task.solvable or isinstance(task.truth, bool):
        return None
    soup = locate.parse(task.html)
    found = literals(task.query)
    for source, data in _sources(soup, found):
        head = ["import json", soup_line(parser), *source]
        tries: list[tuple[list[str], str]] = []
        for condition, start in _anchors(data, found):
            pick = [*_WALK, f"item = next(o for o in walk(data) if {condition})"]
            tries += [(pick, reading) for reading in _readings(start, "item", task.truth)]
        tries += [([], reading) for reading in _readings(data, "data", task.truth)]
        for pick, reading in tries[:4]:
            show = "item" if pick else "data"
            inspect = [*pick, f"print(json.dumps({show}, ensure_ascii=False)[:1500])"]
            body = [*pick, f"answer = {reading}", "print(json.dumps(answer, ensure_ascii=False))"]
            plan = checked_plan(task, head, body, inspect, rng, ("json",))
            if plan is not None:
                return plan
    return None
