"""Run many rollouts concurrently with a progress bar, resumable after interruption.

Each finished rollout is appended (and flushed) to ``<output>.partial.jsonl``; a rerun with
the same output skips the (archetype, seed) pairs already there. A rollout that raised
anywhere (the endpoint after its retries, the sandbox, the grader) becomes an error row
with its message and the run goes on; error rows are not "done", so a rerun retries them.
Only a ``FatalEndpointError`` (a key or model the endpoint refuses) stops the run. The
results JSON is written atomically at the end; the journal is removed once no row failed.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bs4_env.episode.engine import Budgets
from bs4_env.evaluation.openai_policy import FatalEndpointError
from bs4_env.evaluation.report import error_record, is_error, rollout_record, summarize
from bs4_env.evaluation.rollout import DEFAULT_MAX_TURNS, run_rollout
from bs4_env.evaluation.turns import AssistantTurn, Message, Policy
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import Row

PolicyFor = Callable[[Task], Policy]
TaskFor = Callable[[Row], Task]


def generated_task(row: Row) -> Task:
    """A generated task from its (archetype, seed, split) identity."""
    return build_task(row.archetype_id, row.seed, row.split)


def partial_path(output: Path) -> Path:
    return output.with_name(output.name + ".partial.jsonl")


def _load_done(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """Finished rollouts of an earlier run, by (archetype, seed); error rows are not done."""
    if not path.is_file():
        return {}
    done: dict[tuple[str, int], dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by the interruption; that rollout is simply rerun
        if not is_error(record):
            done[(record["archetype"], record["seed"])] = record
    return done


class _Recorded:
    """Passes turns through, keeping the conversation and token counts for an error row."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.messages: list[Message] = []
        self.prompt_tokens = 0
        self.completion_tokens = 0

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn:
        self.messages = messages
        turn = await self.policy.next_turn(messages, tools)
        self.prompt_tokens += turn.prompt_tokens
        self.completion_tokens += turn.completion_tokens
        return turn


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
    task_for: TaskFor = generated_task,
) -> dict[str, Any]:
    """Evaluate every row; returns (and writes to ``output``) the results document.
    ``task_for`` builds a row's task (labelled pages: ``page_task_builder``)."""
    from tqdm.auto import tqdm

    partial = partial_path(output)
    if not resume and partial.exists():
        partial.unlink()
    wanted = {(row.archetype_id, row.seed) for row in rows}
    done = {key: r for key, r in _load_done(partial).items() if key in wanted}
    todo = [row for row in rows if (row.archetype_id, row.seed) not in done]
    records = list(done.values())
    gate = asyncio.Semaphore(concurrency)
    output.parent.mkdir(parents=True, exist_ok=True)
    bar = tqdm(total=len(rows), initial=len(done), disable=not progress, desc="rollouts")
    with partial.open("a", encoding="utf-8") as sink:

        async def one(row: Row) -> None:
            async with gate:
                recorded: _Recorded | None = None
                try:
                    task = task_for(row)
                    recorded = _Recorded(policy_for(task))
                    rollout = await run_rollout(task, recorded, executor, budgets, max_turns)
                    record = rollout_record(rollout)
                except FatalEndpointError:
                    raise
                except Exception as error:  # recorded as an error row with its message, not lost
                    record = error_record(row, error, recorded)
            records.append(record)
            sink.write(json.dumps(record, ensure_ascii=False) + "\n")
            sink.flush()
            bar.update(1)
            completed = [r["reward"] for r in records if not is_error(r)]
            average = sum(completed) / len(completed) if completed else 0.0
            bar.set_postfix(avg=f"{average:.3f}", errors=len(records) - len(completed))

        try:
            async with asyncio.TaskGroup() as group:
                for row in todo:
                    group.create_task(one(row))
        except ExceptionGroup as failed:
            # Only fatal endpoint errors (or a broken journal) escape a rollout: stop the run
            # with the first one; the finished rollouts stay in the journal.
            raise failed.exceptions[0] from None
    bar.close()
    results = summarize(records, header)
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, output)
    if not results["errors"]:
        partial.unlink()
    return results
