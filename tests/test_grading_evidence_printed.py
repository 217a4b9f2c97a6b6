"""A code a page prints (a Ray ID) names its element: citing every Ray ID is an inventory
(issue 39, item 2).

Before the fix only attribute values and script strings were identifiers, so evidence
listing every Ray ID printed on a bot_wall page (the blocker's among the copies') paid the
justified-abstention reward. Here, on every bot_wall page of every split tested, the Ray-ID
inventory scores 0, while the blocker's own Ray ID alone, and its opening tag, keep the
reward. That needs a second Ray ID on every page: the site's CDN line at the foot of the
page prints one on both twins alike (``walls.cdn_notice``), so the blocker's Ray ID is never
the only one. The Ray IDs are read from the page text here, independently of the grader's
index.
"""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from bs4_env.grading.adversarial import blocking_tag
from bs4_env.grading.identifiers import printed_code
from bs4_env.grading.rubric import REWARD_ABSTAIN, grade
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for
from tests.evidence_cases import RAN, abstain

_RAY = re.compile(r"Ray ID: <code>([0-9a-f]+)</code>")
FAST = (("train", 6), ("eval", 6), ("bench", 6))
# The check: 50 eval seeds, and the bench rows beside them.
MANY = (("eval", 50), ("bench", 30))


def _tasks(splits: tuple[tuple[str, int], ...], archetype: str = "bot_wall") -> list[Task]:
    registry = default_registry()
    return [
        build_task(archetype, seed_for(split, index), split, registry)
        for split, seeds in splits
        for index in range(seeds)
    ]


def _wrong(task: Task) -> list[str]:
    """What is graded wrong on ``task``: the inventory paying, or an honest citation not."""
    if task.limitation is None:
        raise ValueError("bot_wall must have a limitation")
    rays = _RAY.findall(task.html)
    own = [ray for ray in rays if ray in task.limitation.evidence_tokens]
    if len(own) != 1:
        return [f"{task.seed}: {len(own)} blocker Ray IDs among {rays}"]
    if len(rays) < 2:
        return [f"{task.split}/{task.seed}: the blocker's Ray ID is the only one printed"]
    wrong = []
    inventory = " ".join(f"Ray ID: {ray}" for ray in rays)
    honest = (f"Ray ID: {own[0]}", str(blocking_tag(task)))
    if grade(task, abstain(task, inventory), RAN).reward != 0:
        wrong.append(f"{task.split}/{task.seed}: inventory of {len(rays)} Ray IDs pays")
    for evidence in honest:
        if grade(task, abstain(task, evidence), RAN).reward != REWARD_ABSTAIN:
            wrong.append(f"{task.split}/{task.seed}: honest {evidence[:60]!r} does not pay")
    return wrong


def _check(splits: tuple[tuple[str, int], ...]) -> None:
    tasks = _tasks(splits)
    wrong = [line for task in tasks for line in _wrong(task)]
    assert not wrong, "\n".join(wrong[:10])


def test_ray_id_inventory_scores_zero() -> None:
    _check(FAST)


@pytest.mark.slow
def test_ray_id_inventory_scores_zero_on_many_seeds() -> None:
    _check(MANY)


def _outside_checks(task: Task) -> list[str]:
    """The Ray IDs ``task`` prints outside every bot check (none of them a blocker)."""
    soup = BeautifulSoup(task.html, "html.parser")
    for check in soup.select(".bot-check"):
        check.decompose()
    return _RAY.findall(str(soup))


@pytest.mark.parametrize("archetype", ["bot_wall", "bot_check_inline"])
def test_both_twins_print_a_ray_id_outside_the_checks(archetype: str) -> None:
    """The CDN line is on every page of both twins, so it tells neither twin nor blocker."""
    tasks = _tasks(FAST, archetype)
    bare = [f"{task.split}/{task.seed}" for task in tasks if not _outside_checks(task)]
    assert not bare, f"{archetype} pages with no Ray ID outside a bot check: {bare}"


@pytest.mark.parametrize(
    ("run", "code"),
    [
        ("3f9a0c41b27e6d58", True),
        ("4417305929361842", True),
        ("x200-pro7", False),
        ("model-xr2000", True),
        ("12-month", False),
        ("covid-19", False),
        ("2026-03-14", False),
        ("555-0142", False),
    ],
)
def test_printed_codes(run: str, code: bool) -> None:
    assert printed_code(run) is code
