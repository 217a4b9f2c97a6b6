"""The first GUESS_SEEDS tasks of every (archetype, split), or every task the split serves
where that is fewer (eval 500, bench 20: ``SERVED_SEEDS``), built once per test process, and
the cross-split duplicate check over their pages.

The content-disjointness test hashes every page of every split and the anti-guessing test
reads the truth of every train task: both walk the same 89,000 train tasks, so one pass
serves both (their modules share an xdist group, so they run in the same process). Only the
train split gets a guess report; the eval and bench pages are only hashed.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bs4_env.checks.guessing import GuessReport, measure_tasks
from bs4_env.tasks.model import Task
from bs4_env.tasks.modes import SERVED_SEEDS
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for
from tests.conftest import GUESS_SEEDS

GROUP = "split-corpus"
GUESSED_SPLIT = "train"


@dataclass(frozen=True)
class SplitDigest:
    """Per task of one (archetype, split): the page's SHA-256; and, for train, the guess
    report."""

    page_hashes: tuple[bytes, ...]
    guess: GuessReport | None


def page_hash(task: Task) -> bytes:
    return hashlib.sha256(task.html.encode()).digest()


def split_tasks(archetype_id: str, split: str, count: int) -> list[Task]:
    """The first ``count`` tasks of an archetype in a split, in seed order."""
    registry = default_registry()
    return [build_task(archetype_id, seed_for(split, i), split, registry) for i in range(count)]


def corpus_seeds(split: str) -> int:
    """How many of a split's first seeds the corpus holds: GUESS_SEEDS, or all the split serves
    (a later seed's page is in no dataset, so it can leak nothing)."""
    return min(GUESS_SEEDS, SERVED_SEEDS[split])


@functools.cache
def split_digest(archetype_id: str, split: str) -> SplitDigest:
    tasks = split_tasks(archetype_id, split, corpus_seeds(split))
    guess = measure_tasks(archetype_id, tasks) if split == GUESSED_SPLIT else None
    return SplitDigest(tuple(page_hash(task) for task in tasks), guess)


def train_guess(archetype_id: str) -> GuessReport:
    guess = split_digest(archetype_id, GUESSED_SPLIT).guess
    if guess is None:
        raise RuntimeError(f"no guess report for {archetype_id} {GUESSED_SPLIT}")
    return guess


def cross_split_duplicates(digests: Iterable[tuple[str, str, Sequence[bytes]]]) -> list[str]:
    """Every page (given as ``(archetype id, split, page hashes in seed order)``) whose HTML
    was already seen in another split, any archetype, as ``"<page> = <earlier page>"``. A page
    repeated within one split is no leak between splits and is not reported."""
    first_seen: dict[bytes, tuple[str, str, int]] = {}
    found = []
    for archetype_id, split, hashes in digests:
        for index, key in enumerate(hashes):
            owner = first_seen.setdefault(key, (archetype_id, split, index))
            if owner[1] != split:
                found.append(
                    f"{archetype_id} {split} seed {seed_for(split, index)} = "
                    f"{owner[0]} {owner[1]} seed {seed_for(owner[1], owner[2])}"
                )
    return found
