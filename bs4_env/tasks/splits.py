"""Split seed ranges and the lazy, weighted task index (rows are computed, never stored)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import gcd
from typing import overload

SPLIT_BASES = {"train": 0, "eval": 100_000_000, "bench": 200_000_000}
SPLIT_CAPACITY = 100_000_000
TRAIN_SEEDS_PER_ARCHETYPE = 20_000
EVAL_SEEDS_PER_ARCHETYPE = 500


class SplitError(ValueError):
    """Unknown split or a seed outside the split's range."""


def seed_for(split: str, index: int) -> int:
    """The absolute seed of the ``index``-th task of a split (per archetype)."""
    if split not in SPLIT_BASES:
        raise SplitError(f"unknown split {split!r}; valid: {sorted(SPLIT_BASES)}")
    if not 0 <= index < SPLIT_CAPACITY:
        raise SplitError(f"seed index {index} outside 0..{SPLIT_CAPACITY - 1}")
    return SPLIT_BASES[split] + index


def split_of_seed(seed: int) -> str:
    for name, base in SPLIT_BASES.items():
        if base <= seed < base + SPLIT_CAPACITY:
            return name
    raise SplitError(f"seed {seed} belongs to no split")


@dataclass(frozen=True)
class Row:
    """One dataset row: identity only; the task (and its truth) is rebuilt on demand."""

    archetype_id: str
    seed: int
    split: str


class SplitIndex(Sequence[Row]):
    """A lazy index of a split. Constant memory whatever its length.

    One *cycle* visits archetype ``a`` ``weights[a]`` times; row ``i`` lies in cycle
    ``i // cycle_len``, and each archetype's seed index grows by its weight per cycle, so
    no (archetype, seed) repeats. With ``shuffle_seed`` the order is an affine permutation
    ``i -> (a*i + b) mod n``: cheap, lazy, and deterministic.
    """

    def __init__(
        self,
        weights: Mapping[str, int],
        split: str,
        cycles: int,
        shuffle_seed: int | None = None,
    ) -> None:
        if not weights or any(w < 1 for w in weights.values()) or cycles < 1:
            raise SplitError("an index needs archetypes with weights >= 1 and cycles >= 1")
        self._split = split
        self._weights = dict(weights)
        self._cycle: list[tuple[str, int]] = []
        remaining = dict(weights)
        while any(remaining.values()):  # interleave so every prefix mixes archetypes
            for archetype, left in remaining.items():
                if left:
                    self._cycle.append((archetype, weights[archetype] - left))
                    remaining[archetype] = left - 1
        seed_for(split, cycles * max(weights.values()) - 1)  # validates split and range
        self._len = cycles * len(self._cycle)
        self._mul, self._add = 1, 0
        if shuffle_seed is not None and self._len > 1:
            self._mul = 1 + (shuffle_seed * 2_654_435_761) % (self._len - 1)
            while gcd(self._mul, self._len) != 1:
                self._mul += 1
            self._add = (shuffle_seed * 40_503) % self._len

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Row]: ...
    def __getitem__(self, index: int | slice) -> Row | Sequence[Row]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(index)
        position = (self._mul * index + self._add) % self._len
        cycle, offset = divmod(position, len(self._cycle))
        archetype, occurrence = self._cycle[offset]
        seed_index = cycle * self._weights[archetype] + occurrence
        return Row(archetype, seed_for(self._split, seed_index), self._split)

    def __iter__(self) -> Iterator[Row]:
        return (self[i] for i in range(self._len))
