"""Splits: disjoint seed ranges and content, the lazy index, and its memory bound."""

from __future__ import annotations

import itertools
import tracemalloc

import pytest

from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import Registry
from bs4_env.tasks.splits import SPLIT_BASES, SPLIT_CAPACITY, SplitError, seed_for, split_of_seed
from tests.split_corpus import GROUP, split_digest


def test_seed_ranges_are_disjoint() -> None:
    ranges = sorted((base, base + SPLIT_CAPACITY) for base in SPLIT_BASES.values())
    assert all(end <= start for (_, end), (start, _) in itertools.pairwise(ranges))
    for split in SPLIT_BASES:
        assert split_of_seed(seed_for(split, 123)) == split
    with pytest.raises(SplitError):
        seed_for("test", 0)


@pytest.mark.slow
@pytest.mark.xdist_group(GROUP)
def test_no_task_html_shared_between_splits(registry: Registry) -> None:
    owner: dict[bytes, str] = {}
    for archetype_id in registry.ids():
        for split in SPLIT_BASES:
            for index, key in enumerate(split_digest(archetype_id, split).page_hashes):
                seen = owner.setdefault(key, split)
                seed = seed_for(split, index)
                assert seen == split, f"{archetype_id} seed {seed} page also in {seen}"


def test_full_train_index_is_lazy_and_small() -> None:
    tracemalloc.start()
    rows = build_rows(DatasetConfig(split="train", mode="all"))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(rows) >= 100_000
    assert peak < 100 * 2**20
    sample = [rows[i] for i in range(0, len(rows), max(1, len(rows) // 5000))]
    assert len({(r.archetype_id, r.seed) for r in sample}) == len(sample)
    assert all(split_of_seed(r.seed) == "train" for r in sample)
