"""Run many rollouts concurrently with a progress bar, resumable after interruption.

Each finished rollout is appended (and flushed) to ``<output>.partial.jsonl``; a rerun with
the same output skips the (archetype, seed) pairs already there. The final results JSON is
written atomically at the end, and the partial file removed.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bs4_env.episode.engine import Budgets
from bs4_env.evaluation.report import rollout_record, summarize
from bs4_env.evaluation.rollout import DEFAULT_MAX_TURNS, run_rollout
from bs4_env.evaluation.turns import Policy
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import Row

PolicyFor = Callable[[Task], Policy]


def partial_path(output: Path) -> Path:
    return output.with_name(output.name + ".partial.jsonl")


def _load_done(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    done = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                done.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a line cut by the interruption; that rollout is simply rerun
    return done


async def evaluate(
    rows: Sequence[Row],
    policy_for: PolicyFor,
    executor: Executor,
    output: Path,
    header: dict[str, Any],
    concurrency: int = 8,
    budgets: Budgets | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    resume: bool = True,
    progress: bool = True,
) -> dict[str, Any]:
    """Evaluate every row; returns (and writes to ``output``) the results document."""
    from tqdm.auto import tqdm

    partial = partial_path(output)
    done = _load_done(partial) if resume else []
    if not resume and partial.exists():
        partial.unlink()
    done_keys = {(r["archetype"], r["seed"]) for r in done}
    todo = [row for row in rows if (row.archetype_id, row.seed) not in done_keys]
    records = list(done)
    gate = asyncio.Semaphore(concurrency)
    output.parent.mkdir(parents=True, exist_ok=True)
    bar = tqdm(total=len(rows), initial=len(done), disable=not progress, desc="rollouts")
    with partial.open("a", encoding="utf-8") as sink:

        async def one(row: Row) -> None:
            async with gate:
                task = build_task(row.archetype_id, row.seed, row.split)
                rollout = await run_rollout(task, policy_for(task), executor, budgets, max_turns)
            record = rollout_record(rollout)
            records.append(record)
            sink.write(json.dumps(record, ensure_ascii=False) + "\n")
            sink.flush()
            bar.update(1)
            bar.set_postfix(avg=f"{sum(r['reward'] for r in records) / len(records):.3f}")

        await asyncio.gather(*(one(row) for row in todo))
    bar.close()
    results = summarize(records, header)
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, output)
    partial.unlink()
    return results
