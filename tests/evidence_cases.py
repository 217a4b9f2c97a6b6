"""Limitation tasks and their blocking element, for the evidence property tests (issue 17).

The blocker is found here from the task's evidence tokens alone, independently of the
grader's index: the outermost elements whose attributes or script/style text carry a
token, and the elements a token-carrying script looks up by id (the list it fills).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from bs4 import BeautifulSoup, Tag

from bs4_env.grading.rubric import ToolUsage
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for

RAN = ToolUsage(tool_calls=1, soup_runs=1)
IDENTIFIER_ATTRS = ("id", "src", "href", "action", "data", "poster")
_LOOKUP = re.compile(r"""getElementById\(\s*['"]([^'"]+)['"]\s*\)""")
_OPENING = re.compile(r"<[^<>]*>")


def abstain(task: Task, evidence: str) -> str:
    """The final message abstaining with the task's first reason and ``evidence``."""
    if task.limitation is None:
        raise ValueError(f"{task.archetype_id} has no limitation")
    reason = task.limitation.reasons[0].value
    return json.dumps({"status": "limit", "limit": {"reason": reason, "evidence": evidence}})


@functools.lru_cache(maxsize=8)
def limitation_tasks(split: str, seeds: int) -> tuple[Task, ...]:
    """``seeds`` tasks of ``split`` for every limitation archetype of the registry."""
    registry = default_registry()
    return tuple(
        build_task(spec.id, seed_for(split, index), split, registry)
        for spec in registry
        if not spec.solvable
        for index in range(seeds)
    )


def identifier_values(tag: Tag) -> list[str]:
    """The values of ``tag``'s id, URL and ``data-*`` attributes."""
    return [
        str(value)
        for name, value in tag.attrs.items()
        if (name in IDENTIFIER_ATTRS or name.startswith("data-")) and isinstance(value, str)
    ]


def opening_tag(tag: Tag) -> str:
    found = _OPENING.match(str(tag))
    if found is None:
        raise ValueError(f"no opening tag in {str(tag)[:80]!r}")
    return found.group()


def _carries(tag: Tag, tokens: tuple[str, ...]) -> bool:
    texts = [str(value) for value in tag.attrs.values()]
    if tag.name in ("script", "style"):
        texts.append(tag.get_text())
    return any(token in text for text in texts for token in tokens)


@dataclass(frozen=True)
class Blocker:
    """A task's blocking elements (outermost carriers), the elements its script fills, the
    id/URL values of elements outside both (and outside their ancestors), and every tag of
    the page in document order (the one parse that the tests' other page walks reuse)."""

    task: Task
    elements: tuple[Tag, ...]
    filled: tuple[Tag, ...]
    outside: tuple[str, ...]
    tags: tuple[Tag, ...]

    @property
    def page_tags(self) -> int:
        return len(self.tags)


def _subtree_ids(roots: list[Tag]) -> set[int]:
    return {id(tag) for root in roots for tag in (root, *root.find_all(True))}


# Blockers found so far, by archetype, split and seed: each test asks for a task's blocker
# several times (each citation, each kind of inventory), and a parse costs ~13 ms a page.
_BLOCKERS: dict[tuple[str, str, int], Blocker] = {}
_MAX_BLOCKERS = 4096


def find_blocker(task: Task) -> Blocker:
    """The blocker of ``task``, found once per task (by archetype, split and seed)."""
    key = (task.archetype_id, task.split, task.seed)
    if key not in _BLOCKERS:
        if len(_BLOCKERS) >= _MAX_BLOCKERS:
            _BLOCKERS.pop(next(iter(_BLOCKERS)))  # the oldest: memory stays bounded
        _BLOCKERS[key] = _find_blocker(task)
    return _BLOCKERS[key]


def _find_blocker(task: Task) -> Blocker:
    if task.limitation is None:
        raise ValueError(f"{task.archetype_id} has no limitation")
    tokens = task.limitation.evidence_tokens
    # The sandbox's ``make_soup()`` default parser, as a model sees the page.
    soup = BeautifulSoup(task.html, "html.parser")
    tags = soup.find_all(True)
    carriers = [tag for tag in tags if _carries(tag, tokens)]
    carrier_ids = {id(tag) for tag in carriers}
    elements = [tag for tag in carriers if carrier_ids.isdisjoint(map(id, tag.parents))]
    inside = _subtree_ids(elements)
    path = {id(parent) for tag in carriers for parent in tag.parents}
    names = {
        name for tag in carriers if tag.name == "script" for name in _LOOKUP.findall(tag.get_text())
    }
    filled = [
        tag
        for tag in tags
        if tag.get("id") in names and id(tag) not in inside and id(tag) not in path
    ]
    group = elements + filled
    excluded = _subtree_ids(group) | {id(parent) for tag in group for parent in tag.parents}
    blocker_text = "".join(str(tag) for tag in group)
    outside = [
        value
        for tag in tags
        if id(tag) not in excluded
        for value in identifier_values(tag)
        if len(value) >= 6
        and re.search(r"[a-z]", value)
        and re.search(r"\d", value)
        and value not in blocker_text
        and not any(value in url for url in task.pages)
    ]
    outside = list(dict.fromkeys(outside))
    return Blocker(task, tuple(elements), tuple(filled), tuple(outside), tuple(tags))
