"""Expert episodes on real training pages: the generic reference program of each row's family
(``bs4_env/real/reference_recipe_solution.py``, ``reference_solution.py``: no site code),
replayed through the engine and sandbox like every SFT episode, kept only where it earns the
best reward (the program is right on that page).

The rows come from a page set's training part (``real2#train`` by default, or a rows file's
``#train`` part): sites disjoint from the evaluation rows, so SFT on them never sees a site of
the set it is evaluated on.
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

from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
from bs4_env.pages.sets import canonical_name, page_set, split_name
from bs4_env.real.reference import family_program
from bs4_env.sandbox.base import Executor
from bs4_env.sft.build import CHUNK, tools_json
from bs4_env.sft.plan import Plan, Step
from bs4_env.sft.replay import best_reward, replay

REAL_TRAIN = "real2#train"
KIND = "real_page_reference"


@dataclass
class RealTally:
    """Kept and dropped episodes per family."""

    kept: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)

    def as_dict(self, pages: str) -> dict[str, Any]:
        return {
            "pages": pages,
            "kept": sum(self.kept.values()),
            "dropped": sum(self.dropped.values()),
            "kept_by_family": dict(sorted(self.kept.items())),
            "dropped_by_family": dict(sorted(self.dropped.items())),
        }


def training_part(pages: str) -> str:
    """The canonical name of ``pages``' training part (refuses an evaluation part)."""
    name = canonical_name(pages)
    _base, part = split_name(name)
    if part == "eval":
        raise ValueError(f"{pages!r} is an evaluation part: expert episodes use a training part")
    return name if part else canonical_name(pages, "train")


async def episode_for(pages: str, index: int, executor: Executor) -> dict[str, Any] | None:
    """The reference program's episode on row ``index``, if it earns the best reward."""
    loaded = page_set(pages, DEFAULT_MAX_PAGE_BYTES)
    task = loaded.task(index)
    row = loaded.rows[index].row
    plan = Plan(KIND, (Step("run_python", family_program(row.family)),), "final_json")
    done = await replay(task, plan, executor)
    if done.score.reward != best_reward(task):
        return None
    return {
        "messages": done.messages,
        "untrained_turns": done.untrained_turns,
        "tools": tools_json(),
        "archetype": row.family,
        "seed": index,
        "split": task.split,
        "difficulty": task.difficulty.value,
        "category": task.category.value,
        "kind": KIND,
        "tags": [],
        "reward": done.score.reward,
        "page_sha256": hashlib.sha256(task.html.encode()).hexdigest(),
        "pages": loaded.name,
        "row_id": row.id,
    }


async def append_real_episodes(
    pages: str, count: int, seed: int, executor: Executor, data_file: Path
) -> RealTally:
    """Try ``count`` rows of the training part (drawn by ``seed``, no row twice) and append
    the kept episodes to ``data_file``, in draw order."""
    name = training_part(pages)
    size = len(page_set(name, DEFAULT_MAX_PAGE_BYTES))
    order = list(range(size))
    Random(f"sft-real:{seed}").shuffle(order)
    chosen = order[: min(count, size)]
    tally = RealTally()
    with data_file.open("a", encoding="utf-8") as sink:
        for start in range(0, len(chosen), CHUNK):
            chunk = chosen[start : start + CHUNK]
            records = await asyncio.gather(*(episode_for(name, i, executor) for i in chunk))
            for index, record in zip(chunk, records, strict=True):
                family = page_set(name, DEFAULT_MAX_PAGE_BYTES).rows[index].row.family
                if record is None:
                    tally.dropped[family] += 1
                    continue
                sink.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
                tally.kept[family] += 1
    return tally
