"""Splits: disjoint seed ranges and content, the lazy index, and its memory bound."""

from __future__ import annotations

import itertools
import tracemalloc

import pytest

from bs4_env.tasks.modes import (
    SERVED_SEEDS,
    TIER_WEIGHTS,
    DatasetConfig,
    build_rows,
    select_archetypes,
)
from bs4_env.tasks.registry import Registry
from bs4_env.tasks.splits import SPLIT_BASES, SPLIT_CAPACITY, SplitError, seed_for, split_of_seed
from tests.split_corpus import (
    GROUP,
    cross_split_duplicates,
    page_hash,
    split_digest,
    split_tasks,
)


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
    """No page of one split (any archetype) is in another, over every page eval and bench
    serve (500 and 20 seeds an archetype, ``SERVED_SEEDS``) and the first GUESS_SEEDS of
    train's 20,000. Pages of later eval and bench seeds are in no dataset and are not built
    (until 2026-12-07 the first 1,000 seeds of every split were, 267,000 pages in all).

    Every page is generated: neither a sample nor a cached manifest would make the same
    claim. The split never enters the RNG (``task_rng`` hashes archetype id and seed only), so
    a cross-split duplicate is two seeds whose generator output happens to coincide; how
    likely that is depends on each generator's entropy, which no argument from the seed
    derivation bounds, so a smaller sample would catch fewer such archetypes. A manifest of
    hashes could only be verified by regenerating the pages. This costs about 1 ms of CPU
    per task (135,280 tasks); the train part, 89,000 of them, is shared with test_guessing
    (same xdist group, same process)."""
    digests = (
        (archetype_id, split, split_digest(archetype_id, split).page_hashes)
        for archetype_id in registry.ids()
        for split in SPLIT_BASES
    )
    shared = cross_split_duplicates(digests)
    assert not shared, f"{len(shared)} pages shared between splits, first: {shared[:3]}"


def test_duplicate_check_finds_a_page_copied_into_another_split() -> None:
    """The checker above on real pages: clean splits pass; a train page injected into bench
    (same or another archetype) is reported with both seeds; a repeat within one split is not
    a cross-split leak."""
    first, second = "text_by_id", "table_rowspan_colspan"
    pages = {
        (archetype_id, split): [page_hash(t) for t in split_tasks(archetype_id, split, 3)]
        for archetype_id in (first, second)
        for split in SPLIT_BASES
    }

    def check(copied: dict[tuple[str, str], list[bytes]]) -> list[str]:
        return cross_split_duplicates((a, s, hashes) for (a, s), hashes in copied.items())

    assert check(pages) == []
    bench = {**pages, (first, "bench"): [*pages[first, "bench"][:2], pages[first, "train"][1]]}
    train_seed, bench_seed = seed_for("train", 1), seed_for("bench", 2)
    assert check(bench) == [f"{first} bench seed {bench_seed} = {first} train seed {train_seed}"]
    across = {**pages, (second, "eval"): [pages[first, "bench"][0], *pages[second, "eval"][1:]]}
    assert check(across) == [
        f"{second} eval seed {seed_for('eval', 0)} = {first} bench seed {seed_for('bench', 0)}"
    ]
    within = {**pages, (first, "train"): [*pages[first, "train"][:2], pages[first, "train"][0]]}
    assert check(within) == []


@pytest.mark.parametrize("mode", ["all", "tiered"])
@pytest.mark.parametrize("split", sorted(SERVED_SEEDS))
def test_rows_reach_only_the_served_seeds(registry: Registry, split: str, mode: str) -> None:
    """The split checks build each split's first ``SERVED_SEEDS`` seeds at most: no row of
    any mode reaches a later seed, and mode "all" reaches the last one."""
    config = DatasetConfig(split=split, mode=mode)
    rows = build_rows(config, registry)
    if split == "train":
        # Unshuffled (no seed), the index ends with its last cycle, which holds every
        # archetype's highest seed index; no cycle is longer than every archetype at the
        # largest weight, so this tail holds it and the 1.78 million rows before are not walked.
        longest_cycle = len(select_archetypes(config, registry)) * max(TIER_WEIGHTS.values())
        rows = rows[-longest_cycle:]
    top = max(row.seed - SPLIT_BASES[split] for row in rows)
    assert top < SERVED_SEEDS[split]
    if mode == "all":
        assert top == SERVED_SEEDS[split] - 1


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
