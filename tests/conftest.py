"""Shared fixtures: the registry, seeds per split, one executor for the session, and a bytecode
cache for the processes tests start."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator

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


@pytest.fixture(scope="session", autouse=True)
def bytecode_cache_for_subprocesses() -> Iterator[None]:
    """The Python processes tests start write and read ``.pyc`` files.

    Many tests start processes that import the same thousands of modules: ``vf-eval`` and its
    tool server, verifiers' chat program once per rollout, classic ``vf-eval``'s env-server
    workers, prime-rl's ``evals`` / ``env-server`` / ``rl``, the Hub install's fresh venv. Their
    venvs are built by ``uv``, which writes no ``.pyc`` files, and with
    ``PYTHONDONTWRITEBYTECODE`` set (as in many CI images and this project's shells) every one
    of those processes compiled every module it imported from source again: 3.5 of the 7 CPU-s
    of ``import beautiful_soup_env, verifiers`` in the classic venv, 0.8 of the 1.8 CPU-s of the
    chat program's imports (2026-12-06). With the variable unset for the session the first
    process to import a module writes its bytecode and the others read it (CPython writes
    ``.pyc`` files atomically, so concurrent processes are safe). What the processes do is
    unchanged; only where their bytecode comes from."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
        yield


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
# The longest work units start first (longest-processing-time-first), so that no worker is left
# with one of them at the end: Makefile's PYTEST passes --no-loadscope-reorder, because
# pytest-xdist otherwise reorders units by their number of tests (3.8: loadscope.py), which
# started the one-test split corpus as unit 88 of 378. Ranked by summed test time in a
# fresh-clone run (2026-12-06, tests/conftest.py's own report); every unit not listed follows
# in collection order.
LONG_FIRST = (
    "tests/test_splits.py",
    "tests/e2e/test_primerl_integration.py",
    "tests/test_sft_recovery.py",
    "tests/e2e/test_classic_vf_eval.py",
    "tests/test_leaks.py",
    "tests/e2e/test_vf_eval_e2e.py",
    "tests/test_sft_data.py",
    # One xdist group (tests/evidence_many_seeds.py), ~90 s: one unit, whichever file leads.
    "tests/test_grading_evidence.py",
    "tests/test_grading_evidence_blocker.py",
    "tests/test_grading_evidence_glue.py",
    "tests/test_grading_evidence_ids.py",
    "tests/archetypes/test_static_copy_twins.py",
    "tests/e2e/test_pages_e2e.py",
    "tests/e2e/test_hub_install.py",
    "tests/archetypes/test_limitation_twins.py",
    "tests/e2e/test_request_format.py",
    "tests/e2e/test_vf_history_proxy.py",
    "tests/e2e/test_vf_train_stream.py",
    "tests/test_guessing.py",
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


# --- where the time goes ---------------------------------------------------------------------
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """With ``--durations=N`` (``make test`` passes 15), also print the N test files whose
    tests took longest in all (setup + call + teardown summed over their tests, on whichever
    xdist worker ran them): a module fixture's cost lands in its first test's setup, so the
    per-test list alone hides what a file costs."""
    count = terminalreporter.config.getoption("durations", default=None)
    if count is None:
        return
    per_file: defaultdict[str, float] = defaultdict(float)
    for reports in terminalreporter.stats.values():
        for report in reports:
            if isinstance(report, pytest.TestReport):
                per_file[report.nodeid.split("::", 1)[0]] += report.duration
    if not per_file:
        return
    ranked = sorted(per_file.items(), key=lambda item: item[1], reverse=True)
    slowest = ranked[:count] if count > 0 else ranked  # --durations=0: all, as pytest's own
    terminalreporter.write_sep("=", f"slowest {len(slowest)} test files (summed test time)")
    for path, seconds in slowest:
        terminalreporter.write_line(f"{seconds:9.2f}s {path}")
    total = sum(per_file.values())
    terminalreporter.write_line(
        f"{total:9.2f}s summed over all {len(per_file)} files (test time, not wall time)"
    )
