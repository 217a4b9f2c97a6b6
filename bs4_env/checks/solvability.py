"""Run each archetype's reference program through the chat rollout, engine and real grader.

Solvable seeds must score 1.0 and limitation seeds 0.5 (a justified abstention).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field

from bs4_env.evaluation.rollout import run_rollout
from bs4_env.evaluation.scripted import ReferencePolicy
from bs4_env.grading.rubric import REWARD_ABSTAIN, REWARD_CORRECT
from bs4_env.sandbox.base import Executor
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
    spec = registry.get(archetype_id)
    program = registry.reference_solution(archetype_id)
    expected = REWARD_CORRECT if spec.solvable else REWARD_ABSTAIN
    report = CheckReport(archetype_id, split)
    gate = asyncio.Semaphore(concurrency)
    policy = ReferencePolicy(lambda _messages: program)

    async def one(seed: int) -> None:
        async with gate:
            task = build_task(archetype_id, seed, split, registry)
            score = (await run_rollout(task, policy, executor)).score
        if score.reward == expected:
            report.passed += 1
        else:
            report.failures.append((seed, score.reward, score.explanation))

    await asyncio.gather(*(one(seed) for seed in seeds))
    report.failures.sort()
    return report
