"""Seeded randomness: one ``random.Random`` per (archetype id, seed), nothing global."""

from __future__ import annotations

import hashlib
from random import Random


def derive_seed(archetype_id: str, seed: int) -> int:
    """A 64-bit integer derived from the archetype id and seed by SHA-256 (process-stable)."""
    digest = hashlib.sha256(f"bs4-env:{archetype_id}:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def task_rng(archetype_id: str, seed: int) -> Random:
    """The only source of randomness a generator may use for this task."""
    return Random(derive_seed(archetype_id, seed))


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
    if n == 6:
        return TOKEN_TRIPLES[bits & 0x7FFF] + TOKEN_TRIPLES[bits >> 15]
    # Up to nine characters without a loop: pages draw 7-character CSS class names by the
    # hundred (``bulk.inline_css``). The last triple's unused characters read bits that are
    # zero, so slicing them off gives what the loop below gives.
    if n == 7:
        return (
            TOKEN_TRIPLES[bits & 0x7FFF]
            + TOKEN_TRIPLES[(bits >> 15) & 0x7FFF]
            + TOKEN_ALPHABET[bits >> 30]
        )
    if 3 < n < 6:
        return TOKEN_TRIPLES[bits & 0x7FFF] + TOKEN_TRIPLES[bits >> 15][: n - 3]
    if 7 < n <= 9:
        return (
            TOKEN_TRIPLES[bits & 0x7FFF]
            + TOKEN_TRIPLES[(bits >> 15) & 0x7FFF]
            + TOKEN_TRIPLES[bits >> 30][: n - 6]
        )
    # A loop, not a join over a list: about twice as fast for the short lengths pages use.
    text = ""
    while n >= 3:
        text += TOKEN_TRIPLES[bits & 0x7FFF]
        bits >>= 15
        n -= 3
    return text + TOKEN_TRIPLES[bits][:n] if n else text
