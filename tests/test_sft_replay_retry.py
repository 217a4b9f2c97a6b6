"""A replay whose sandbox failed is played again: no "sandbox error" reply enters SFT data.

The executor below is the real sandbox with faults injected in front of it (the first calls
answer as a worker that died would), the way a loaded machine makes them happen.
"""

from __future__ import annotations

from random import Random

import pytest

from bs4_env.sandbox.base import ExecRequest, ExecResult, Executor
from bs4_env.sft.episodes import candidate_plans
from bs4_env.sft.replay import REPLAY_TRIES, SandboxUnavailable, replay
from bs4_env.tasks.registry import Registry, build_task


class FailingFirst(Executor):
    """The real executor, except that its first ``failures`` calls fail as infrastructure."""

    def __init__(self, real: Executor, failures: int) -> None:
        self.real, self.failures, self.calls = real, failures, 0

    async def run(self, request: ExecRequest) -> ExecResult:
        self.calls += 1
        if self.calls <= self.failures:
            return ExecResult("", "", None, False, 0.01, infra_error="worker did not answer")
        return await self.real.run(request)


async def test_a_failed_sandbox_call_is_replayed_not_kept(
    registry: Registry, executor: Executor
) -> None:
    task = build_task("text_by_id", 0, "train", registry)
    plan = candidate_plans(task, registry, Random(0))[0]
    clean = await replay(task, plan, executor)
    flaky = FailingFirst(executor, failures=1)
    again = await replay(task, plan, flaky)
    assert flaky.calls > len(plan.steps)
    assert again.messages == clean.messages
    assert again.score.reward == clean.score.reward == 1.0
    assert not any("sandbox error" in str(m.get("content")) for m in again.messages)


async def test_a_sandbox_failing_on_every_try_is_a_loud_error(
    registry: Registry, executor: Executor
) -> None:
    task = build_task("text_by_id", 1, "train", registry)
    plan = candidate_plans(task, registry, Random(0))[0]
    broken = FailingFirst(executor, failures=10**6)
    with pytest.raises(SandboxUnavailable, match="text_by_id seed 1"):
        await replay(task, plan, broken)
    assert broken.calls == REPLAY_TRIES * len(plan.steps)
