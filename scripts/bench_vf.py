"""Environment overhead through real ``vf-eval`` vs the engine alone, with a scripted model.

For each tool scope (shared tool server, per-rollout tool servers) it runs
``vf-eval beautiful-soup-env`` against the loopback scripted server (reference policy, so
model time is ~0) and breaks every trace's time into setup, harness start, tool calls,
model calls and grading; then it runs the same rollouts through ``run_rollout`` with the
same policy and executor. Prints per-rollout means and rollouts per second.

    .venv/bin/python scripts/bench_vf.py [-n 64] [-c 64] [--scopes shared,rollout]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))

from scripted_server import ScriptedServer, policy_for
from vf_run import run_vf_eval, total_reward, vf_eval_command

from bs4_env.episode.executors import make_executor
from bs4_env.evaluation.rollout import run_rollout
from bs4_env.sandbox.base import ExecRequest
from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import Row


def _span(part: dict[str, float]) -> float:
    return part["end"] - part["start"]


def breakdown(trace: dict[str, Any]) -> dict[str, float]:
    """Seconds of one rollout by phase, from the trace's own timings."""
    timing = trace["timing"]
    calls = sorted(trace["calls"], key=lambda c: c["time"]["start"])
    model = sum(_span(c["time"]) for c in calls)
    tools = sum(b["time"]["start"] - a["time"]["end"] for a, b in itertools.pairwise(calls))
    first = calls[0]["time"]["start"] if calls else timing["agent"]["end"]
    return {
        "setup": _span(timing["setup"]),
        "harness_start": first - timing["agent"]["start"],
        "tool_calls": tools,
        "model": model,
        "grading": _span(timing["finalize"]) + _span(timing["scoring"]),
        "total": timing["scoring"]["end"] - timing["start"],
    }


def bench_vf(
    rows: list[Row], server: ScriptedServer, scope: str, n: int, c: int, executor: str
) -> None:
    out = Path(tempfile.mkdtemp(prefix="bench-vf-"))
    taskset = {"split": rows[0].split, "num-examples": n, "tool-scope": scope, "executor": executor}
    command = vf_eval_command("reference", server.base_url, out, scope, n, c, taskset)
    run = run_vf_eval(command, out, scope, timeout=3600)
    traces = run.traces
    if run.returncode != 0 or len(traces) != n:
        print(f"[{scope}] vf-eval failed rc={run.returncode}:\n{run.output[-3000:]}")
        return
    parts = [breakdown(t) for t in traces]
    starts = [t["timing"]["start"] for t in traces]
    ends = [t["timing"]["scoring"]["end"] for t in traces]
    rewards = [total_reward(t) for t in traces]
    mean_reward = statistics.mean(rewards)
    print(f"\nvf-eval, tool scope {scope!r}: n={n} c={c}, mean reward {mean_reward:.3f}")
    for key in parts[0]:
        values = [p[key] for p in parts]
        print(
            f"  {key:14} mean {statistics.mean(values):7.3f} s   "
            f"median {statistics.median(values):7.3f}   max {max(values):7.3f}"
        )
    phase = max(ends) - min(starts)
    startup = min(starts) - run.started_at
    print(f"  process {run.wall_s:.1f} s: startup {startup:.1f} s, rollout phase {phase:.1f} s")
    print(
        f"  throughput {n / phase:.2f} rollouts/s (rollout phase), {n / run.wall_s:.2f} (process)"
    )


async def bench_engine(rows: list[Row], c: int, executor_kind: str) -> None:
    tasks = [build_task(r.archetype_id, r.seed, r.split) for r in rows]
    gate = asyncio.Semaphore(c)
    durations: list[float] = []
    async with make_executor(executor_kind) as executor:
        await executor.run(ExecRequest(code="print(1)", html="<p></p>", query=""))  # warm up

        async def one(task: Any) -> float:
            async with gate:
                t0 = time.perf_counter()
                rollout = await run_rollout(task, policy_for("reference", task), executor)
                durations.append(time.perf_counter() - t0)
                return rollout.score.reward

        started = time.perf_counter()
        rewards = await asyncio.gather(*(one(t) for t in tasks))
        wall = time.perf_counter() - started
    print(f"\nengine only (run_rollout, {executor_kind} executor): n={len(rows)} c={c}, "
          f"mean reward {statistics.mean(rewards):.3f}")  # fmt: skip
    print(f"  per rollout mean {statistics.mean(durations):.3f} s, median "
          f"{statistics.median(durations):.3f} s; {len(rows) / wall:.2f} rollouts/s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=64)
    parser.add_argument("-c", type=int, default=64)
    parser.add_argument("--split", default="eval")
    parser.add_argument("--scopes", default="shared,rollout")
    parser.add_argument("--rollout-n", type=int, default=8, help="n for the per-rollout scope")
    parser.add_argument("--executor", default="local", choices=["local", "subprocess"])
    args = parser.parse_args()
    rows = list(build_rows(DatasetConfig(split=args.split, num_examples=args.n)))
    with ScriptedServer(rows) as server:
        for scope in args.scopes.split(","):
            n = args.n if scope == "shared" else min(args.n, args.rollout_n)
            bench_vf(rows[:n], server, scope, n, min(args.c, n), args.executor)
    asyncio.run(bench_engine(rows, args.c, args.executor))


if __name__ == "__main__":
    main()
