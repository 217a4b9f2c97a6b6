"""Make the episodes: plan, replay in the sandbox, keep the best-reward ones, stream to disk.

Rows first get their episode kind (``bs4_env.sft.mix``); then they are replayed a chunk at a
time (concurrently) and written in row order, so the same arguments give the same bytes.
``train.jsonl`` in the output folder is what prime-rl's SFT trainer loads with ``[data] name
= "<folder>"`` (the Hugging Face ``json`` loader, split ``train``); ``summary.json`` beside it
has the counts and the episode mix.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bs4_env.episode.tool_schema import openai_tools
from bs4_env.grading.rubric import REWARD_CORRECT
from bs4_env.sandbox.base import Executor
from bs4_env.sft.episodes import BaseDraw, candidate_plans
from bs4_env.sft.mix import EPISODE_KINDS, Assignment, Mix, assign, episode_rng
from bs4_env.sft.plan import Plan, shared_outcomes
from bs4_env.sft.replay import Replayed, best_reward, replay
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import Row

DATA_FILE = "train.jsonl"
SUMMARY_FILE = "summary.json"
CHUNK = 16


@dataclass
class Tally:
    """What a run made and dropped, per archetype and per kind."""

    kept: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    episode_kinds: Counter[str] = field(default_factory=Counter)
    kind_fallbacks: Counter[str] = field(default_factory=Counter)
    tags: Counter[str] = field(default_factory=Counter)
    fallbacks: int = 0
    chars: int = 0
    tool_calls: int = 0

    def as_dict(self) -> dict[str, Any]:
        kept = sum(self.kept.values())
        return {
            "kept": kept,
            "dropped": sum(self.dropped.values()),
            "kinds": dict(sorted(self.kinds.items())),
            "episode_kinds": {k: self.episode_kinds[k] for k in EPISODE_KINDS},
            "episode_kind_shares": {
                k: round(self.episode_kinds[k] / kept, 4) if kept else 0.0 for k in EPISODE_KINDS
            },
            "episode_kind_fallbacks_to_normal": dict(sorted(self.kind_fallbacks.items())),
            "tags": dict(sorted(self.tags.items())),
            "fallbacks_after_a_failed_replay": self.fallbacks,
            "mean_chars_per_episode": round(self.chars / kept, 1) if kept else 0,
            "mean_tool_calls": round(self.tool_calls / kept, 2) if kept else 0,
            "kept_by_archetype": dict(sorted(self.kept.items())),
            "dropped_by_archetype": dict(sorted(self.dropped.items())),
        }


def tools_json() -> str:
    """The rollout's tool schemas, as the JSON string prime-rl's SFT loader accepts."""
    return json.dumps(openai_tools(), ensure_ascii=False)


def _kept(task: Task, plan: Plan, done: Replayed) -> bool:
    """Best reward; a budget episode (one refused call past the task's free calls costs
    efficiency) needs the grader's correct answer instead."""
    if plan.budget_calls is None:
        return done.score.reward == best_reward(task)
    correct = done.score.components.get("correct") == REWARD_CORRECT
    return correct and done.score.reward > 0 and task.solvable


async def episode_for(
    row: Row,
    registry: Registry,
    executor: Executor,
    seed: int,
    tally: Tally,
    kind: str = "normal",
    kind_plans: list[Plan] | None = None,
    drawn: BaseDraw | None = None,
) -> dict[str, Any] | None:
    """The first candidate plan whose replay is kept (``kind_plans`` first, then the normal
    ones), as a record (or None). ``drawn``: the row's base draw the mix made already."""
    task = build_task(row.archetype_id, row.seed, row.split, registry)
    special = [(kind, plan) for plan in kind_plans or []]
    normal = [
        ("normal", plan) for plan in candidate_plans(task, registry, episode_rng(row, seed), drawn)
    ]
    for attempt, (episode_kind, plan) in enumerate([*special, *normal]):
        done = await replay(task, plan, executor)
        if not _kept(task, plan, done):
            continue
        tally.fallbacks += attempt > len(special)
        tally.kind_fallbacks[kind] += episode_kind != kind
        spec = registry.get(task.archetype_id)
        return {
            "messages": done.messages,
            "untrained_turns": done.untrained_turns,
            "tools": tools_json(),
            "archetype": task.archetype_id,
            "seed": task.seed,
            "split": task.split,
            "difficulty": spec.difficulty.value,
            "category": spec.category.value,
            "kind": plan.kind,
            "episode_kind": episode_kind,
            "tags": list(plan.tags),
            "reward": done.score.reward,
            "page_sha256": hashlib.sha256(task.html.encode()).hexdigest(),
        }
    return None


def _chars(message: dict[str, Any]) -> int:
    calls = message.get("tool_calls") or []
    return len(message.get("content") or "") + sum(len(c["function"]["arguments"]) for c in calls)


def _check_train(rows: Sequence[Row]) -> None:
    wrong = sorted({row.split for row in rows} - {"train"})
    if wrong:
        raise ValueError(f"warm-start episodes come from the train split only, not {wrong}")


def _count(tally: Tally, record: dict[str, Any]) -> None:
    tally.kept[record["archetype"]] += 1
    tally.kinds[record["kind"]] += 1
    tally.episode_kinds[record["episode_kind"]] += 1
    tally.tags.update(record["tags"])
    tally.chars += sum(_chars(m) for m in record["messages"])
    tally.tool_calls += sum(m["role"] == "tool" for m in record["messages"])


async def _chunk_records(
    rows: Sequence[Row],
    plan: Assignment,
    start: int,
    registry: Registry,
    executor: Executor,
    seed: int,
    tally: Tally,
) -> list[dict[str, Any] | None]:
    end = min(start + CHUNK, len(rows))
    return await asyncio.gather(
        *(
            episode_for(
                rows[i],
                registry,
                executor,
                seed,
                tally,
                plan.kinds[i],
                plan.plans[i],
                plan.bases.get(rows[i]),
            )
            for i in range(start, end)
        )
    )


def mix_report(mix: Mix, plan: Assignment, tally: Tally) -> dict[str, Any]:
    """Requested shares, row targets, rows assigned, shortfalls and what was kept."""
    return {
        "requested_shares": mix.shares(),
        "budget_calls": list(mix.budget_calls),
        "targets": plan.targets,
        "assigned": {k: plan.kinds.count(k) for k in EPISODE_KINDS},
        "short": plan.short,
        "kept": {k: tally.episode_kinds[k] for k in EPISODE_KINDS},
        "kept_shares": tally.as_dict()["episode_kind_shares"],
        "fallbacks_to_normal": dict(sorted(tally.kind_fallbacks.items())),
    }


async def expert_episodes(
    rows: Sequence[Row],
    registry: Registry,
    executor: Executor,
    seed: int = 0,
    mix: Mix | None = None,
) -> tuple[list[dict[str, Any] | None], Tally, dict[str, Any]]:
    """Verified expert episodes of the given train rows, with the given kind mix: one record
    (or None, where no plan replayed to a kept grade) per row, in order; the tally; and the
    mix report. The records are those ``bs4-env sft-data`` writes (same bytes for the same
    rows, seed and mix)."""
    _check_train(rows)
    mix = mix or Mix()
    with shared_outcomes():
        plan = assign(rows, registry, seed, mix)
        tally = Tally()
        records: list[dict[str, Any] | None] = []
        for start in range(0, len(rows), CHUNK):
            chunk = await _chunk_records(rows, plan, start, registry, executor, seed, tally)
            for row, record in zip(rows[start : start + CHUNK], chunk, strict=True):
                if record is None:
                    tally.dropped[row.archetype_id] += 1
                else:
                    _count(tally, record)
            records.extend(chunk)
    return records, tally, mix_report(mix, plan, tally)


async def generate(
    rows: list[Row],
    registry: Registry,
    executor: Executor,
    out_dir: Path,
    seed: int,
    mix: Mix | None = None,
) -> Tally:
    """Write one JSON line per kept episode to ``out_dir/train.jsonl`` and the summary."""
    _check_train(rows)
    mix = mix or Mix()
    out_dir.mkdir(parents=True, exist_ok=True)
    with shared_outcomes():
        plan = assign(rows, registry, seed, mix)
        tally = Tally()
        with (
            (out_dir / DATA_FILE).open("w", encoding="utf-8") as sink,
            tqdm(total=len(rows), unit="episode", desc="sft-data") as bar,
        ):
            for start in range(0, len(rows), CHUNK):
                chunk = rows[start : start + CHUNK]
                records = await _chunk_records(rows, plan, start, registry, executor, seed, tally)
                for row, record in zip(chunk, records, strict=True):
                    if record is None:
                        tally.dropped[row.archetype_id] += 1
                        continue
                    line = json.dumps(record, ensure_ascii=False, sort_keys=True)
                    sink.write(line + "\n")
                    _count(tally, record)
                bar.update(len(chunk))
                bar.set_postfix(kept=sum(tally.kept.values()), dropped=sum(tally.dropped.values()))
    summary = {**tally.as_dict(), "mix": mix_report(mix, plan, tally)}
    (out_dir / SUMMARY_FILE).write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    return tally
