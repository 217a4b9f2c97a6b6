"""Shared fixtures: the registry, seeds per split, and one executor for the session."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from bs4_env.episode.executors import make_executor
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.registry import Registry, default_registry

# Registry-wide property tests scale with these; CI runs the full counts.
SEEDS_PER_SPLIT = int(os.environ.get("BS4ENV_TEST_SEEDS", "100"))
GUESS_SEEDS = int(os.environ.get("BS4ENV_GUESS_SEEDS", "1000"))


@pytest.fixture(scope="session")
def registry() -> Registry:
    return default_registry()


def archetype_ids() -> list[str]:
    return list(default_registry().ids())


@pytest.fixture
async def executor() -> AsyncIterator[Executor]:
    """The hardened local sandbox, as training uses it."""
    async with make_executor("local", pool_size=2) as backend:
        yield backend
