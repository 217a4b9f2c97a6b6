"""Make the episodes: plan, replay in the sandbox, keep the best-reward ones, stream to disk.

Rows are replayed a chunk at a time (concurrently) and written in row order, so the same
arguments give the same bytes. ``train.jsonl`` in the output folder is what prime-rl's SFT
trainer loads with ``[data] name = "<folder>"`` (the Hugging Face ``json`` loader, split
``train``); ``summary.json`` beside it has the counts.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from tqdm import tqdm

from bs4_env.episode.tool_schema import openai_tools
from bs4_env.sandbox.base import Executor
from bs4_env.sft.episodes import candidate_plans
from bs4_env.sft.replay import best_reward, replay
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


async def episode_for(
    row: Row, registry: Registry, executor: Executor, seed: int, tally: Tally
) -> dict[str, Any] | None:
    """The first candidate plan whose replay scores the best reward, as a record (or None)."""
    task = build_task(row.archetype_id, row.seed, row.split, registry)
    rng = Random(f"sft:{seed}:{row.archetype_id}:{row.seed}")
    for attempt, plan in enumerate(candidate_plans(task, registry, rng)):
        done = await replay(task, plan, executor)
        if done.score.reward != best_reward(task):
            continue
        tally.fallbacks += attempt > 0
        spec = registry.get(task.archetype_id)
        return {
            "messages": done.messages,
            "tools": tools_json(),
            "archetype": task.archetype_id,
            "seed": task.seed,
            "split": task.split,
            "difficulty": spec.difficulty.value,
            "category": spec.category.value,
            "kind": plan.kind,
            "tags": list(plan.tags),
            "reward": done.score.reward,
            "page_sha256": hashlib.sha256(task.html.encode()).hexdigest(),
        }
    return None


def _chars(message: dict[str, Any]) -> int:
    calls = message.get("tool_calls") or []
    return len(message.get("content") or "") + sum(len(c["function"]["arguments"]) for c in calls)


async def generate(
    rows: list[Row], registry: Registry, executor: Executor, out_dir: Path, seed: int
) -> Tally:
    """Write one JSON line per kept episode to ``out_dir/train.jsonl`` and the summary."""
    out_dir.mkdir(parents=True, exist_ok=True)
    tally = Tally()
    with (
        (out_dir / DATA_FILE).open("w", encoding="utf-8") as sink,
        tqdm(total=len(rows), unit="episode", desc="sft-data") as bar,
    ):
        for start in range(0, len(rows), CHUNK):
            chunk = rows[start : start + CHUNK]
            records = await asyncio.gather(
                *(episode_for(row, registry, executor, seed, tally) for row in chunk)
            )
            for row, record in zip(chunk, records, strict=True):
                if record is None:
                    tally.dropped[row.archetype_id] += 1
                    continue
                line = json.dumps(record, ensure_ascii=False, sort_keys=True)
                sink.write(line + "\n")
                tally.kept[row.archetype_id] += 1
                tally.kinds[record["kind"]] += 1
                tally.tags.update(record["tags"])
                tally.chars += sum(_chars(m) for m in record["messages"])
                tally.tool_calls += sum(m["role"] == "tool" for m in record["messages"])
            bar.update(len(chunk))
            bar.set_postfix(kept=sum(tally.kept.values()), dropped=sum(tally.dropped.values()))
    summary = tally.as_dict()
    (out_dir / SUMMARY_FILE).write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    return tally
