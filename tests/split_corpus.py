"""The first GUESS_SEEDS tasks of every (archetype, split), built once per test process.

The content-disjointness test hashes every page of every split and the anti-guessing test
reads the truth of every train task: both walk the same 89,000 train tasks, so one pass
serves both (their modules share an xdist group, so they run in the same process).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass

from bs4_env.checks.guessing import GuessReport, measure_tasks
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for
from tests.conftest import GUESS_SEEDS

GROUP = "split-corpus"


@dataclass(frozen=True)
class SplitDigest:
    """Per task of one (archetype, split): the page's SHA-256; and the guess report."""

    page_hashes: tuple[bytes, ...]
    guess: GuessReport


@functools.cache
def split_digest(archetype_id: str, split: str) -> SplitDigest:
    registry = default_registry()
    tasks = [
        build_task(archetype_id, seed_for(split, index), split, registry)
        for index in range(GUESS_SEEDS)
    ]
    hashes = tuple(hashlib.sha256(task.html.encode()).digest() for task in tasks)
    return SplitDigest(hashes, measure_tasks(archetype_id, tasks))
