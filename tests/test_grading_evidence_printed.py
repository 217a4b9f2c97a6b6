"""A code a page prints (a Ray ID) names its element: citing every Ray ID is an inventory
(issue 39, item 2).

Before the fix only attribute values and script strings were identifiers, so evidence
listing every Ray ID printed on a bot_wall page (the blocker's among the copies') paid the
justified-abstention reward. Here, on bot_wall pages of every split, the Ray-ID inventory
scores 0 wherever the page prints more than one Ray ID, while the blocker's own Ray ID
alone, and its opening tag, keep the reward. (Where the blocker's is the only Ray ID the
page prints, the "inventory" is the honest citation itself.) The Ray IDs are read from the
page text here, independently of the grader's index.
"""

from __future__ import annotations

import re

import pytest

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


def _tasks(splits: tuple[tuple[str, int], ...]) -> list[Task]:
    registry = default_registry()
    return [
        build_task("bot_wall", seed_for(split, index), split, registry)
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
    wrong = []
    inventory = " ".join(f"Ray ID: {ray}" for ray in rays)
    honest = (f"Ray ID: {own[0]}", str(blocking_tag(task)))
    if len(rays) > 1 and grade(task, abstain(task, inventory), RAN).reward != 0:
        wrong.append(f"{task.split}/{task.seed}: inventory of {len(rays)} Ray IDs pays")
    for evidence in honest:
        if grade(task, abstain(task, evidence), RAN).reward != REWARD_ABSTAIN:
            wrong.append(f"{task.split}/{task.seed}: honest {evidence[:60]!r} does not pay")
    return wrong


def _check(splits: tuple[tuple[str, int], ...]) -> None:
    tasks = _tasks(splits)
    wrong = [line for task in tasks for line in _wrong(task)]
    assert not wrong, "\n".join(wrong[:10])
    # The test must see inventories: some pages print several Ray IDs.
    assert sum(len(_RAY.findall(task.html)) > 1 for task in tasks) >= len(tasks) // 5


def test_ray_id_inventory_scores_zero() -> None:
    _check(FAST)


@pytest.mark.slow
def test_ray_id_inventory_scores_zero_on_many_seeds() -> None:
    _check(MANY)


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
