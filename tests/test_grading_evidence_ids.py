"""The blocker plus any one outside id, bare or with ``#``, is an inventory (issue 30, item 1).

Before the fix an id without a digit (``chk-mdjtfjk``) was not an identifier unless written
``#chk-mdjtfjk``, so evidence naming the blocker and a look-alike's bare id scored 0.5.
Registry-wide: for every limitation archetype and seeds of every split, the blocker's
first evidence token followed by each id of an element outside the blocker and its path
(digits or not), bare or as ``#id``, scores 0. Ids made only of prose words (every letter
run of 4+ letters is a word of the page's visible text or a layout word such as ``main``)
stay prose and are not tried; nor are ids that the blocker's own markup or the page URL
contains, which citing the blocker names anyway. The ids and the blocker are found here
independently of the grader's index (``tests/evidence_cases.py``).
"""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup, Tag

from bs4_env.grading.rubric import grade
from bs4_env.tasks.model import Task
from tests import evidence_many_seeds
from tests.evidence_cases import RAN, abstain, find_blocker, limitation_tasks
from tests.evidence_many_seeds import GROUP

FAST = (("train", 3), ("eval", 2), ("bench", 2))
# Every bench row of every limitation archetype (the audit's 189 pages are among them).
MANY = (("train", 10), ("eval", 10), ("bench", 20))
_LETTERS = re.compile(r"[a-z]{4,}")
# Words of a page's frame that honest prose uses (a page's ``main`` or ``masthead``).
LAYOUT_WORDS = frozenset(
    [
        "main",
        "content",
        "page",
        "primary",
        "secondary",
        "root",
        "wrap",
        "wrapper",
        "header",
        "footer",
        "sidebar",
        "navigation",
        "menu",
        "site",
        "search",
        "reset",
        "container",
        "body",
        "masthead",
        "colophon",
    ]
)


def _page_words(soup: BeautifulSoup) -> set[str]:
    texts = [s for s in soup.find_all(string=True) if s.parent.name not in ("script", "style")]
    return set(_LETTERS.findall(" ".join(texts).casefold()))


def _root(tag: Tag) -> BeautifulSoup:
    *_, root = tag.parents
    if not isinstance(root, BeautifulSoup):
        raise TypeError("a blocker element outside its document")
    return root


def prose(value: str, words: set[str]) -> bool:
    """Whether every 4+-letter run of ``value`` is a page word or a layout word."""
    return all(run in words or run in LAYOUT_WORDS for run in _LETTERS.findall(value.casefold()))


def outside_ids(task: Task) -> list[str]:
    """Ids of elements outside the blocker and its path that are not prose (digits or not)."""
    blocker = find_blocker(task)
    group = [*blocker.elements, *blocker.filled]
    excluded = {id(t) for root in group for t in (root, *root.find_all(True), *root.parents)}
    shown = "".join(str(tag) for tag in group).casefold()
    soup = _root(group[0])
    words = _page_words(soup)
    found = []
    for tag in soup.find_all(id=True):
        value = str(tag["id"])
        folded = value.casefold()
        if id(tag) in excluded or len(value) < 4 or prose(value, words):
            continue
        if folded in shown or any(folded in url.casefold() for url in task.pages):
            continue
        found.append(value)
    return list(dict.fromkeys(found))


def passing_citations(task: Task) -> list[str]:
    """Evidence "blocker token + one outside id" (bare and ``#id``) that does not score 0."""
    if task.limitation is None:
        raise ValueError(f"{task.archetype_id} has no limitation")
    token = task.limitation.evidence_tokens[0]
    passed = []
    for value in outside_ids(task):
        for cited in (value, f"#{value}"):
            evidence = f"{token} {cited}"
            score = grade(task, abstain(task, evidence), RAN)
            if score.reward != 0.0 or "other page element" not in score.explanation:
                passed.append(evidence)
    return passed


def _ids_check(task: Task) -> tuple[list[str], list[str]]:
    """The outside ids of ``task``, and each "token + one of them" citation not scoring 0."""
    return outside_ids(task), passing_citations(task)


def _assert_all_zero(
    checked: list[tuple[Task, tuple[list[str], list[str]]]], splits: tuple[tuple[str, int], ...]
) -> None:
    for split, seeds in splits:
        archetypes = {task.archetype_id for task, _ in checked if task.split == split}
        assert sum(task.split == split for task, _ in checked) == seeds * len(archetypes) > 0
    passed: dict[str, list[str]] = {}
    tried = digit_free = 0
    for task, (ids, passing) in checked:
        tried += len(ids)
        digit_free += sum(not any(c.isdigit() for c in value) for value in ids)
        for evidence in passing:
            passed.setdefault(task.archetype_id, []).append(f"{task.seed}: {evidence}")
    assert not passed, {name: (len(where), where[:3]) for name, where in passed.items()}
    # The property is about ids without digits: the sample must hold many of them.
    assert digit_free >= 20, (tried, digit_free)


evidence_many_seeds.register("ids", dict(MANY), _ids_check)


def test_blocker_plus_one_outside_id_scores_zero() -> None:
    checked = [
        (task, _ids_check(task)) for split, seeds in FAST for task in limitation_tasks(split, seeds)
    ]
    _assert_all_zero(checked, FAST)


@pytest.mark.slow
@pytest.mark.xdist_group(GROUP)
def test_blocker_plus_one_outside_id_scores_zero_on_many_seeds() -> None:
    """``MANY``, checked in the walk it shares with the other evidence tests
    (``evidence_many_seeds``): the same tasks and grades, each task generated and indexed once."""
    _assert_all_zero(evidence_many_seeds.results("ids"), MANY)


def test_the_audit_example_scores_zero() -> None:
    """The audit's example: media_only, bench seed 200000000, blocker token and a bare id."""
    task = next(t for t in limitation_tasks("bench", 1) if t.archetype_id == "media_only")
    digit_free = [v for v in outside_ids(task) if not any(c.isdigit() for c in v)]
    assert digit_free, outside_ids(task)
    token = task.limitation.evidence_tokens[0] if task.limitation else ""
    for value in digit_free:
        score = grade(task, abstain(task, f"{token} {value}"), RAN)
        assert score.reward == 0.0, (value, score.explanation)


def test_prose_ids_stay_prose() -> None:
    """An honest citation that uses a layout word which is also an outside id still passes."""
    passed = 0
    for task in limitation_tasks("train", 3):
        if task.limitation is None:
            continue
        token = task.limitation.evidence_tokens[0]
        evidence = f"{token} stands in the main content of the page where the data should be"
        score = grade(task, abstain(task, evidence), RAN)
        assert score.reward > 0, (task.archetype_id, task.seed, score.explanation)
        passed += 1
    assert passed >= 10
