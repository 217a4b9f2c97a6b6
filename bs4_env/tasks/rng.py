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


_TOKEN_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # 32 symbols, no look-alikes


def token(rng: Random, n: int = 6) -> str:
    """A short random identifier: 5 random bits per character, drawn in one call."""
    bits = rng.getrandbits(5 * n)
    return "".join(_TOKEN_ALPHABET[(bits >> (5 * i)) & 31] for i in range(n))
