"""Measure how guessable each archetype is: constant-answer hit rate and query leakage."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bs4_env.grading.normalize import normalize
from bs4_env.tasks.model import JSONValue, Task
from bs4_env.tasks.registry import Registry, build_task, default_registry
from bs4_env.tasks.splits import seed_for

MIN_LEAF_CHARS = 3


@dataclass(frozen=True)
class GuessReport:
    archetype_id: str
    seeds: int
    top_answer_rate: float
    query_leak_rate: float
    top_answer: str


def _leaves(value: JSONValue) -> Iterator[str]:
    if isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif value is not None:
        yield value if isinstance(value, str) else json.dumps(value)


def answer_in_query(task: Task) -> bool:
    """True when every answer leaf of length >= 3 already appears in the query text."""
    leaves = [
        leaf.casefold() for leaf in _leaves(task.truth) if len(leaf.strip()) >= MIN_LEAF_CHARS
    ]
    query = task.query.casefold()
    return bool(leaves) and all(leaf in query for leaf in leaves)


def _answer_key(task: Task) -> str:
    """What a constant guesser would have to match: normalized truth, or the evidence."""
    if task.limitation is not None:
        return json.dumps(sorted(task.limitation.evidence_tokens))
    canonical = normalize(task.truth, task.normalization)
    return json.dumps(canonical, sort_keys=True, ensure_ascii=False)


def measure(
    archetype_id: str, seeds: int = 1000, split: str = "train", registry: Registry | None = None
) -> GuessReport:
    """Guess rates over the first ``seeds`` tasks of ``split``."""
    registry = registry or default_registry()
    tasks = (
        build_task(archetype_id, seed_for(split, index), split, registry) for index in range(seeds)
    )
    return measure_tasks(archetype_id, tasks)


def measure_tasks(archetype_id: str, tasks: Iterable[Task]) -> GuessReport:
    """Guess rates over given tasks of one archetype (a caller that builds them anyway)."""
    counts: Counter[str] = Counter()
    leaks = seeds = 0
    for task in tasks:
        if task.archetype_id != archetype_id:
            raise ValueError(f"task of {task.archetype_id!r} measured as {archetype_id!r}")
        seeds += 1
        counts[_answer_key(task)] += 1
        leaks += int(task.solvable and answer_in_query(task))
    if not seeds:
        raise ValueError(f"no tasks to measure for {archetype_id!r}")
    top, hits = counts.most_common(1)[0]
    return GuessReport(archetype_id, seeds, hits / seeds, leaks / seeds, top[:80])
