"""Fairness under load: queue wait reported apart from run time, slow calls cannot starve
the others for long, and one rollout holds at most one sandbox at a time."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from bs4_env.episode.engine import Episode
from bs4_env.episode.executors import make_executor
from bs4_env.episode.tool_text import TIMING_PREFIX, without_timing
from bs4_env.grading.rubric import TIMING_COMPONENTS
from bs4_env.sandbox.base import ExecRequest
from bs4_env.sandbox.local_backend import LocalExecutor
from bs4_env.tasks.registry import build_task
from tests.sandbox.conftest import NORMAL, PAGE

pytestmark = pytest.mark.asyncio(loop_scope="module")
SLEEP = "import time\ntime.sleep({seconds})\nprint('woke')"


async def test_queue_wait_is_reported_apart_from_run_time() -> None:
    sandbox = LocalExecutor(pool_size=1, max_pool_size=1)
    async with sandbox:
        await sandbox.start()
        sleeper = asyncio.ensure_future(sandbox.run(ExecRequest(SLEEP.format(seconds=1.5), PAGE)))
        await asyncio.sleep(0.2)
        waited = await sandbox.run(NORMAL)
        slept = await sleeper
    assert slept.ok and waited.ok, (slept, waited)
    assert waited.queue_wait_s >= 1.0, waited
    assert waited.duration_s < 1.0, waited  # its own run, not the sleeper's
    assert slept.queue_wait_s < 0.5 and slept.duration_s >= 1.5, slept


async def test_slow_calls_do_not_starve_an_ordinary_one() -> None:
    """Four calls sleeping 20 s on two workers; an ordinary call behind them runs in seconds."""
    sandbox = LocalExecutor(pool_size=2, max_pool_size=8, grow_after_s=0.5)
    async with sandbox:
        await sandbox.start()
        request = ExecRequest(SLEEP.format(seconds=20), PAGE, timeout_s=25)
        sleepers = [asyncio.ensure_future(sandbox.run(request)) for _ in range(4)]
        await asyncio.sleep(0.2)
        started = time.monotonic()
        result = await sandbox.run(NORMAL)
        elapsed = time.monotonic() - started
        for sleeper in sleepers:
            sleeper.cancel()
        await asyncio.gather(*sleepers, return_exceptions=True)
    assert result.ok, result
    assert elapsed < 12, f"an ordinary call waited {elapsed:.1f} s behind sleeping ones"
    assert result.queue_wait_s >= 0.5, result


async def test_one_rollout_runs_one_call_at_a_time(executor: LocalExecutor) -> None:
    """Two calls of one episode issued together run one after the other."""
    episode = Episode(build_task("text_by_id", 7, "eval"), executor)
    code = "import time\nprint(time.time())\ntime.sleep(0.6)\nprint(time.time())"
    replies = await asyncio.gather(
        *(episode.call_tool("run_python", json.dumps({"code": code})) for _ in range(2))
    )
    spans = sorted(
        tuple(float(x) for x in reply.split("stdout:\n")[1].split()[:2]) for reply in replies
    )
    assert spans[1][0] >= spans[0][1], f"calls overlapped: {spans}"


async def test_timing_reaches_the_reply_and_the_score(executor: LocalExecutor) -> None:
    task = build_task("text_by_id", 7, "eval")
    episode = Episode(task, executor)
    reply = await episode.call_tool("run_python", json.dumps({"code": "print(make_soup().title)"}))
    timing = reply.splitlines()[1]
    assert timing.startswith(TIMING_PREFIX) and "ran" in timing and "waited" in timing, reply
    assert TIMING_PREFIX not in without_timing(reply)
    assert without_timing(reply).startswith("exit status: 0\nstdout:\n")
    score = episode.finish(json.dumps({"status": "ok", "answer": task.truth}))
    assert score.reward == 1.0
    for name in TIMING_COMPONENTS:
        assert name in score.components
    assert score.components["run_s"] > 0 and score.components["queue_wait_s"] >= 0


async def test_pool_is_sized_from_expected_concurrency() -> None:
    """By default one warm worker per rollout expected at once (capped), else 4."""
    sizes = {
        "default": make_executor("local"),
        "12 rollouts": make_executor("local", concurrency=12),
        "500 rollouts": make_executor("local", concurrency=500),
        "explicit": make_executor("local", 3, concurrency=12),
    }
    got = {name: getattr(executor, "pool_size", None) for name, executor in sizes.items()}
    assert got == {"default": 4, "12 rollouts": 12, "500 rollouts": 32, "explicit": 3}
    with pytest.raises(ValueError, match="concurrency"):
        make_executor("local", concurrency=0)
