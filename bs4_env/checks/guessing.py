"""Measure how guessable each archetype is: constant-answer hit rate and query leakage."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
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
    registry = registry or default_registry()
    counts: Counter[str] = Counter()
    leaks = 0
    for index in range(seeds):
        task = build_task(archetype_id, seed_for(split, index), split, registry)
        counts[_answer_key(task)] += 1
        leaks += int(task.solvable and answer_in_query(task))
    top, hits = counts.most_common(1)[0]
    return GuessReport(archetype_id, seeds, hits / seeds, leaks / seeds, top[:80])
