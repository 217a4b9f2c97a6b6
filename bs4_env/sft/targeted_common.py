"""Shared pieces of the per-family targeted writers: anchors, the answer check, the plan.

A family writer (tables, records, ...) proposes a few programs for one task; each is run
here on the host and kept only if what it prints is the task's answer. The truth only
chooses among programs: no program contains it (``episodes.writes_the_answer`` guards that)
and none reads ``QUERY``; every kept plan is replayed through the real engine afterwards.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, Step, host_run
from bs4_env.tasks.model import Task

_DOUBLE = re.compile(r'"([^"\n]{1,80})"')
INSPECT_SHARE = 0.6
TEXT_HELPER = 'def text(el):\n    return " ".join(el.get_text().split())'


def literals(query: str) -> list[str]:
    """Every quoted string of the request, double quotes paired left to right first (a
    one-character literal such as ``","`` must not shift the pairing), then the rest."""
    found = [m.strip() for m in _DOUBLE.findall(query)]
    return [v for v in dict.fromkeys([*found, *locate.quoted_literals(query)]) if v]


def find_call(tag: Tag, literal: str, base: str = "soup") -> str:
    """``base.find(...)`` that reaches ``tag`` by its name and its text (the literal)."""
    if tag.string is not None and tag.string == literal:
        return f"{base}.find({tag.name!r}, string={literal!r})"
    return f"{base}.find({tag.name!r}, string=lambda s: s and s.strip() == {literal!r})"


def titled(soup: BeautifulSoup, literal: str, names: tuple[str, ...] = ()) -> Iterator[Tag]:
    """Elements (of ``names``, or any heading-like tag) whose collapsed text is ``literal``,
    and whose own string a ``find_call`` can match."""
    wanted = locate.collapse(literal)
    for tag in locate.tags_named(soup, names or locate.HEADINGS):
        if tag.string is not None and locate.collapse(tag.get_text()) == wanted:
            yield tag


def _norm(value: object) -> object:
    if isinstance(value, str):
        return locate.collapse(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return round(float(value), 6)
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _norm(v) for k, v in value.items()}
    return value


def prints_answer(stdout: str | None, truth: object) -> bool:
    """Whether the program printed the answer as one JSON value (same types as the truth)."""
    if stdout is None:
        return False
    try:
        value = json.loads(stdout)
    except json.JSONDecodeError:
        return False
    if isinstance(truth, float) and isinstance(value, float) and math.isnan(value):
        return False
    if type(value) is not type(truth) and not (
        isinstance(truth, int | float) and isinstance(value, int | float)
    ):
        return False
    return _norm(value) == _norm(truth)


def checked_plan(
    task: Task,
    head: list[str],
    body: list[str],
    inspect: list[str] | None,
    rng: Random,
    tags: tuple[str, ...],
) -> Plan | None:
    """The plan ``head + body`` when it prints the answer here; sometimes preceded by an
    inspection call (``head + inspect``) that prints the candidates first."""
    code = "\n".join([*head, *body])
    if not prints_answer(host_run(task, code), task.truth):
        return None
    steps = [Step("run_python", code)]
    if inspect is not None and rng.random() < INSPECT_SHARE:
        look = "\n".join(line for line in [*head, *inspect] if line != "import json")
        if host_run(task, look):
            steps.insert(0, Step("run_python", look))
            tags = (*tags, "inspect")
    return Plan("targeted", tuple(steps), "json", tags=tags)
