"""Rollout records and the aggregate results (overall and by archetype/difficulty/category).

A record is a rollout that finished (``"error": null``) or an error row: a rollout that
raised, with ``"error"`` holding its message, ``"reward": null`` and the transcript so far.
Error rows are counted apart (``errors``), never averaged in as zeros silently:
``avg_reward``, ``pass_rate`` and ``perfect_rate`` are over completed rollouts, and
``avg_reward_errors_as_zero`` is the conservative figure that counts each error as 0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any, Protocol

from bs4_env.evaluation.rollout import Rollout
from bs4_env.evaluation.turns import Message
from bs4_env.pages.sets import page_splits
from bs4_env.tasks.model import Category, Task
from bs4_env.tasks.registry import RegistryError, default_registry
from bs4_env.tasks.splits import Row

PASS_THRESHOLD = 0.5
MAX_ERROR_CHARS = 4_000
UNKNOWN = "unknown"
PAGE_SPLITS = page_splits()
"""The splits of labelled-page rows (``Row(family, index, split)``), never a generated split."""


class PartialRollout(Protocol):
    """What is known of a rollout that raised: the conversation so far and token counts."""

    messages: list[Message]
    prompt_tokens: int
    completion_tokens: int


def rollout_record(rollout: Rollout) -> dict[str, Any]:
    """Everything about one rollout, JSON-ready (the truth is not included)."""
    task = rollout.task
    return {
        "archetype": task.archetype_id,
        "seed": task.seed,
        "split": task.split,
        "difficulty": task.difficulty.value,
        "category": task.category.value,
        "solvable": task.solvable,
        "reward": rollout.score.reward,
        "components": dict(rollout.score.components),
        "explanation": rollout.score.explanation,
        "final": rollout.final_text,
        "prompt_tokens": rollout.prompt_tokens,
        "completion_tokens": rollout.completion_tokens,
        "transcript": rollout.messages,
        "timeout_s": rollout.timeout_s,
        "error": None,
    }


def _described(row: Row, task: Task | None) -> tuple[str, str, bool | None]:
    """An error row's difficulty, category and solvability: the task's own when it was built;
    else a labelled-page row's (its family is its archetype; category ``pages``); else the
    archetype's spec; else "unknown" (the row names no archetype: its message says so)."""
    if task is not None:
        return task.difficulty.value, task.category.value, task.solvable
    if row.split in PAGE_SPLITS:  # the task failed to build: no difficulty or solvability
        return UNKNOWN, Category.PAGES.value, None
    try:
        spec = default_registry().get(row.archetype_id)
    except RegistryError:
        return UNKNOWN, UNKNOWN, None
    return spec.difficulty.value, spec.category.value, spec.solvable


def error_record(
    row: Row, error: BaseException, partial: PartialRollout | None, task: Task | None = None
) -> dict[str, Any]:
    """The error row of a rollout that raised: same keys, ``reward`` null, ``error`` set.
    ``task`` is the row's task when it was built before the error."""
    message = f"{type(error).__name__}: {error}"
    if len(message) > MAX_ERROR_CHARS:
        message = message[:MAX_ERROR_CHARS] + " [...]"
    difficulty, category, solvable = _described(row, task)
    return {
        "archetype": row.archetype_id,
        "seed": row.seed,
        "split": row.split,
        "difficulty": difficulty,
        "category": category,
        "solvable": solvable,
        "reward": None,
        "components": {},
        "explanation": f"rollout failed: {message}",
        "final": "",
        "prompt_tokens": partial.prompt_tokens if partial else 0,
        "completion_tokens": partial.completion_tokens if partial else 0,
        "transcript": list(partial.messages) if partial else [],
        "timeout_s": None,
        "error": message,
    }


def is_error(record: dict[str, Any]) -> bool:
    """An error row (records from before error rows existed have no ``error`` key)."""
    return bool(record.get("error"))


def _stats(records: list[dict[str, Any]]) -> dict[str, float | int]:
    rewards = [float(r["reward"]) for r in records if not is_error(r)]
    n, done = len(records), len(rewards)
    return {
        "n": n,
        "completed": done,
        "errors": n - done,
        "avg_reward": round(sum(rewards) / done, 4) if done else 0.0,
        "avg_reward_errors_as_zero": round(sum(rewards) / n, 4) if n else 0.0,
        "pass_rate": round(sum(x >= PASS_THRESHOLD for x in rewards) / done, 4) if done else 0.0,
        "perfect_rate": round(sum(x == 1.0 for x in rewards) / done, 4) if done else 0.0,
    }


def _grouped(records: list[dict[str, Any]], key: str) -> dict[str, dict[str, float | int]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        groups[str(record[key])].append(record)
    return {name: _stats(items) for name, items in sorted(groups.items())}


def summarize(records: Iterable[dict[str, Any]], header: dict[str, Any]) -> dict[str, Any]:
    """The results document: header fields, overall stats, breakdowns, usage and rollouts."""
    rows = sorted(records, key=lambda r: (r["archetype"], r["seed"]))
    return {
        **header,
        **_stats(rows),
        "by_archetype": _grouped(rows, "archetype"),
        "by_difficulty": _grouped(rows, "difficulty"),
        "by_category": _grouped(rows, "category"),
        "usage": {
            "prompt_tokens": sum(int(r["prompt_tokens"]) for r in rows),
            "completion_tokens": sum(int(r["completion_tokens"]) for r in rows),
        },
        "rollouts": rows,
    }


def format_table(results: dict[str, Any]) -> str:
    """The per-archetype table printed after an evaluation, and a line about error rows."""
    lines = [f"{'archetype':26} {'n':>4} {'err':>4} {'avg':>7} {'pass':>7} {'perfect':>8}"]
    rows = [*results["by_archetype"].items(), ("ALL", results)]
    for name, stats in rows:
        lines.append(
            f"{name:26} {stats['n']:4d} {stats['errors']:4d} {stats['avg_reward']:7.3f} "
            f"{stats['pass_rate']:7.1%} {stats['perfect_rate']:8.1%}"
        )
    if results["errors"]:
        lines.append(
            f"\nerrors: {results['errors']} of {results['n']} rollouts failed and are not scored "
            f'(see their "error"); averages are over the {results["completed"]} completed, '
            f"{results['avg_reward_errors_as_zero']:.3f} with errors as 0. Rerun the same "
            "command to retry them."
        )
    return "\n".join(lines)
