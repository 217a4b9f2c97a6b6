"""Rollout records and the aggregate results (overall and by archetype/difficulty/category)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from bs4_env.evaluation.rollout import Rollout

PASS_THRESHOLD = 0.5


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
    }


def _stats(records: list[dict[str, Any]]) -> dict[str, float | int]:
    rewards = [float(r["reward"]) for r in records]
    n = len(rewards)
    return {
        "n": n,
        "avg_reward": round(sum(rewards) / n, 4) if n else 0.0,
        "pass_rate": round(sum(x >= PASS_THRESHOLD for x in rewards) / n, 4) if n else 0.0,
        "perfect_rate": round(sum(x == 1.0 for x in rewards) / n, 4) if n else 0.0,
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
    """The per-archetype table printed after an evaluation."""
    lines = [f"{'archetype':26} {'n':>4} {'avg':>7} {'pass':>7} {'perfect':>8}"]
    for name, stats in results["by_archetype"].items():
        lines.append(
            f"{name:26} {stats['n']:4d} {stats['avg_reward']:7.3f} "
            f"{stats['pass_rate']:7.1%} {stats['perfect_rate']:8.1%}"
        )
    lines.append(
        f"{'ALL':26} {results['n']:4d} {results['avg_reward']:7.3f} "
        f"{results['pass_rate']:7.1%} {results['perfect_rate']:8.1%}"
    )
    return "\n".join(lines)
