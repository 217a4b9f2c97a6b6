"""Seeded randomness: one ``random.Random`` per (archetype id, seed), nothing global."""

from __future__ import annotations

import hashlib
from bisect import bisect
from collections.abc import MutableSequence, Sequence
from math import ceil, log
from random import Random
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")


def derive_seed(archetype_id: str, seed: int) -> int:
    """A 64-bit integer derived from the archetype id and seed by SHA-256 (process-stable)."""
    digest = hashlib.sha256(f"bs4-env:{archetype_id}:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class TaskRandom(Random):
    """A ``random.Random`` whose hottest methods are written out: ``randint``, ``randrange``
    (integer bounds, step 1), ``choice`` and ``shuffle`` make Random's very draws
    (``Random._randbelow``: ``getrandbits(k)``, ``k`` the bit length of the range's size,
    drawn again while out of range) in one Python call instead of two or three, with the
    same results and the same generator state after (tests/test_rng_draws.py). Generators
    call them by the hundred thousand; any other argument goes to ``Random``'s own method.
    """

    def randint(self, a: int, b: int) -> int:
        if type(a) is not int or type(b) is not int:
            return super().randint(a, b)
        n = b - a + 1
        if n <= 0:
            raise ValueError(f"empty range for randrange() ({a}, {b + 1}, {n})")
        getrandbits = self.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return a + r

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if step != 1 or type(start) is not int or (stop is not None and type(stop) is not int):
            return super().randrange(start, stop, step)
        low, n = (0, start) if stop is None else (start, stop - start)
        if n <= 0:
            return super().randrange(start, stop, step)  # Random's error for an empty range
        getrandbits = self.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return low + r

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        getrandbits = self.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return seq[r]

    def shuffle(self, x: MutableSequence[object]) -> None:
        shuffle(self, x)


def task_rng(archetype_id: str, seed: int) -> Random:
    """The only source of randomness a generator may use for this task."""
    return TaskRandom(derive_seed(archetype_id, seed))


def between(rng: Random, low: int, high: int) -> int:
    """``rng.randint(low, high)``, the very draw (``Random._randbelow``: ``getrandbits(k)``
    with ``k`` the bit length of the range's size, drawn again while out of range) in one
    call instead of three: page generation draws such integers by the hundred thousand.
    Loops that draw many write the draw out the same way (``rng.choice`` too, the same
    draw of an index); tests/test_rng_draws.py holds every such copy to ``Random``'s."""
    n = high - low + 1
    if n <= 0:
        raise ValueError(f"empty range for between({low}, {high})")
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return low + r


def sample(rng: Random, population: Sequence[T], k: int) -> list[T]:
    """``rng.sample(population, k)``: the same draws, the same list.

    Pages sample from small pools (a few labels, templates, headings) several dozen times
    each; ``Random.sample`` spends most of that on an abstract-class check and a call chain
    per draw. This is its pool method, which it uses whenever the population is no larger
    than its small-set size (the same size, computed the same way); larger ones go to
    ``Random.sample`` itself.
    """
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    setsize = 21
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if n > setsize:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    pool = list(population)
    result = []
    for left in range(n, n - k, -1):
        bits = left.bit_length()
        j = getrandbits(bits)
        while j >= left:
            j = getrandbits(bits)
        result.append(pool[j])
        pool[j] = pool[left - 1]
    return result


def shuffle(rng: Random, items: MutableSequence[T]) -> None:
    """``rng.shuffle(items)``: the same swaps from the same draws (``Random._randbelow``'s,
    written out as in ``between``), without a method call per element; pages shuffle their
    widgets, blocks and sections a dozen times each."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def weighted(rng: Random, population: Sequence[T], cum_weights: Sequence[float]) -> T:
    """``rng.choices(population, cum_weights=cum_weights)[0]``: the same ``rng.random()``
    draw, scaled and bisected the same way, without building a list per call."""
    if len(cum_weights) != len(population):
        raise ValueError("The number of weights does not match the population")
    total = cum_weights[-1] + 0.0
    if not 0.0 < total < float("inf"):
        raise ValueError(f"total of weights must be positive and finite, not {total}")
    return population[bisect(cum_weights, rng.random() * total, 0, len(population) - 1)]


TOKEN_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # 32 symbols, no look-alikes


# Every 15-bit value as its three characters (lowest 5 bits first): the hottest helper of
# page generation reads three characters per lookup instead of one per step.
TOKEN_TRIPLES = tuple(
    TOKEN_ALPHABET[v & 31] + TOKEN_ALPHABET[(v >> 5) & 31] + TOKEN_ALPHABET[v >> 10]
    for v in range(1 << 15)
)


def token(rng: Random, n: int = 6) -> str:
    """A short random identifier: 5 random bits per character, drawn in one call.

    Character ``i`` is symbol ``(bits >> 5 * i) & 31``; bits past ``5 * n`` read as zero and
    are cut off, so any ``n`` gives the same string as a character-by-character loop.
    """
    bits = rng.getrandbits(5 * n)
    triples = TOKEN_TRIPLES
    # Up to twelve characters without a loop, by length as pages use them (6, 8, 10 and 5
    # the most): the last triple's unused characters read bits that are zero, so slicing
    # them off gives what the loop below gives.
    if n <= 6:
        if n == 6:
            return triples[bits & 0x7FFF] + triples[bits >> 15]
        if n > 3:
            return triples[bits & 0x7FFF] + triples[bits >> 15][: n - 3]
        return triples[bits][:n]
    if n <= 9:
        return (
            triples[bits & 0x7FFF]
            + triples[(bits >> 15) & 0x7FFF]
            + (TOKEN_ALPHABET[bits >> 30] if n == 7 else triples[bits >> 30][: n - 6])
        )
    if n <= 12:
        return (
            triples[bits & 0x7FFF]
            + triples[(bits >> 15) & 0x7FFF]
            + triples[(bits >> 30) & 0x7FFF]
            + triples[bits >> 45][: n - 9]
        )
    # A loop, not a join over a list: about twice as fast for the short lengths pages use.
    text = ""
    while n >= 3:
        text += triples[bits & 0x7FFF]
        bits >>= 15
        n -= 3
    return text + triples[bits][:n] if n else text
