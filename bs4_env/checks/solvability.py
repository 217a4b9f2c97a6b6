"""Run each archetype's reference program through the chat rollout, engine and real grader.

Solvable seeds must score 1.0 and limitation seeds 0.5 (a justified abstention).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from bs4_env.episode.engine import Budgets
from bs4_env.evaluation.rollout import run_rollout
from bs4_env.evaluation.scripted import ReferencePolicy
from bs4_env.grading.rubric import REWARD_ABSTAIN, REWARD_CORRECT, Score
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.model import Category, Task
from bs4_env.tasks.registry import Registry, build_task, default_registry


@dataclass
class CheckReport:
    archetype_id: str
    split: str
    passed: int = 0
    failures: list[tuple[int, float, str]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.passed + len(self.failures)


def best_reward(task: Task) -> float:
    """What the reference earns on ``task``: 1.0 where it is solvable, else 0.5 (abstain)."""
    return REWARD_CORRECT if task.solvable else REWARD_ABSTAIN


def gold_program(task: Task, registry: Registry | None = None) -> str:
    """The archetype's reference program; for a labelled page, a program that parses the page
    and prints its label as the answer (no program reads every site: the gold of a row is that
    its page parses in the sandbox and its label is accepted by its own normaliser)."""
    if task.category is Category.PAGES:
        answer = json.dumps({"status": "ok", "answer": task.truth}, ensure_ascii=False)
        return f"soup = make_soup()\nprint({answer!r})"
    return (registry or default_registry()).reference_solution(task.archetype_id)


async def play_reference(
    task: Task,
    executor: Executor,
    registry: Registry | None = None,
    budgets: Budgets | None = None,
) -> Score:
    """The real grader's score for the task's gold program (:func:`gold_program`)."""
    program = gold_program(task, registry)
    policy = ReferencePolicy(lambda _messages: program)
    return (await run_rollout(task, policy, executor, budgets)).score


async def check_archetype(
    archetype_id: str,
    split: str,
    seeds: Iterable[int],
    executor: Executor,
    registry: Registry | None = None,
    concurrency: int = 8,
) -> CheckReport:
    """Play the reference program on each seed; a seed passes with the expected reward."""
    registry = registry or default_registry()
    report = CheckReport(archetype_id, split)
    gate = asyncio.Semaphore(concurrency)

    async def one(seed: int) -> None:
        async with gate:
            task = build_task(archetype_id, seed, split, registry)
            score = await play_reference(task, executor, registry)
        if score.reward == best_reward(task):
            report.passed += 1
        else:
            report.failures.append((seed, score.reward, score.explanation))

    await asyncio.gather(*(one(seed) for seed in seeds))
    report.failures.sort()
    return report
