"""Helpers for the selector, list, text and encoding archetype tests.

Tasks are generated once per test session; a reference program can be run in-process with
every ``make_soup()`` forced to one parser, to prove the parsers agree on the truth.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable

from bs4 import BeautifulSoup, Tag

from bs4_env.grading.normalize import answers_match
from bs4_env.tasks.model import JSONValue, Task
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for

_CACHE: dict[str, list[Task]] = {}


def tasks(archetype_id: str, n: int) -> list[Task]:
    """The first ``n`` train tasks of an archetype (generated once per session)."""
    done = _CACHE.setdefault(archetype_id, [])
    done.extend(
        build_task(archetype_id, seed_for("train", i), "train") for i in range(len(done), n)
    )
    return done[:n]


def wrong_share(task_list: list[Task], idiom: Callable[[Task], JSONValue]) -> float:
    """The share of tasks on which ``idiom`` gives an answer the grader rejects."""
    wrong = sum(not answers_match(idiom(t), t.truth, t.normalization) for t in task_list)
    return wrong / len(task_list)


def soup(task: Task) -> BeautifulSoup:
    return BeautifulSoup(task.html, "html.parser")


def text_of(tag: object) -> str:
    """Whitespace-collapsed text of a tag (fails the test when the lookup found nothing)."""
    if not isinstance(tag, Tag):
        raise AssertionError(f"expected a tag, found {tag!r}")
    return " ".join(tag.get_text().split())


def quoted(task: Task, pattern: str) -> str:
    """The first group of ``pattern`` in the task's request (raises when absent)."""
    match = re.search(pattern, task.query)
    if match is None:
        raise AssertionError(f"{pattern!r} not in {task.query!r}")
    return match.group(1)


def heading(page: BeautifulSoup, title: str, names: tuple[str, ...] = ("h2",)) -> Tag:
    """The heading element whose whole text is ``title``."""
    for tag in page.find_all(list(names)):
        if isinstance(tag, Tag) and text_of(tag) == title:
            return tag
    raise AssertionError(f"no heading {title!r}")


def run_reference(task: Task, parser: str) -> JSONValue:
    """The archetype's reference program run in-process with every parse forced to ``parser``."""
    program = default_registry().reference_solution(task.archetype_id)

    def make_soup(requested: str = "html.parser") -> BeautifulSoup:
        return BeautifulSoup(task.html, parser)

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(program, {"HTML": task.html, "QUERY": task.query, "make_soup": make_soup})
    return json.loads(out.getvalue().strip().splitlines()[-1])["answer"]
