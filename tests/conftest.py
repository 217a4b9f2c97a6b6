"""Shared fixtures: the registry, seeds per split, and one executor for the session."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

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


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def executor() -> AsyncIterator[Executor]:
    """The hardened local sandbox, as training uses it: one warm pool per test process
    (starting workers costs about a second; tests outside tests/sandbox share it)."""
    async with make_executor("local", pool_size=2) as backend:
        yield backend


# --- scheduling ------------------------------------------------------------------------------
# `make test` runs pytest-xdist with `--dist loadgroup`. A module listed here spreads its
# tests over the workers (each is independent and costly); every other module runs whole in
# one worker, so its module-scoped fixtures (servers, venvs, trained classifiers) are built
# once. Tests that pin their own xdist_group keep it.
SPREAD_MODULES = frozenset(
    {
        "tests/test_solvability.py",
        "tests/test_determinism.py",
        "tests/test_display_text.py",
    }
)
# The longest tests start first, so that no worker is left with one of them at the end.
LONG_FIRST = (
    "tests/test_splits.py",
    "tests/test_guessing.py",
    "tests/e2e/test_primerl_integration.py",
    "tests/e2e/test_vf_eval_e2e.py",
    "tests/e2e/test_classic_vf_eval.py",
    "tests/test_leaks.py",
    "tests/test_solvability.py",
)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONG_FIRST.index(path) if path in LONG_FIRST else len(LONG_FIRST)

    for item in items:
        path = item.nodeid.split("::", 1)[0]
        if path not in SPREAD_MODULES and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(path))
    items.sort(key=rank)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Fail loudly if pytest-xdist ignored the groups (module fixtures would then be built in
    both workers at once, and tests sharing a path would race)."""
    if not session.config.getoption("loadgroup", default=False):
        return
    untagged = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid
    ]
    if untagged:
        raise pytest.UsageError(
            f"pytest-xdist did not apply xdist_group to {len(untagged)} tests "
            f"(e.g. {untagged[0]}); pytest {pytest.__version__} may be too new for it"
        )
