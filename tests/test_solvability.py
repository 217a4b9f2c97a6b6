"""Every archetype's reference program, run in the sandbox and graded by the real grader.

Solvable seeds must score 1.0 and limitation seeds 0.5, on the first 100 seeds of train and
eval and on every bench row (the bench serves 20 seeds an archetype: ``SERVED_SEEDS``; its
later seeds are in no dataset).
"""

from __future__ import annotations

import pytest

from bs4_env.checks.solvability import check_archetype
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.modes import SERVED_SEEDS
from bs4_env.tasks.registry import Registry
from bs4_env.tasks.splits import SPLIT_BASES, seed_for
from tests.conftest import SEEDS_PER_SPLIT, archetype_ids


@pytest.mark.slow
@pytest.mark.parametrize("archetype_id", archetype_ids())
async def test_reference_solution_scores_full_marks(
    registry: Registry, executor: Executor, archetype_id: str
) -> None:
    failures = []
    for split in SPLIT_BASES:
        seeds = [seed_for(split, i) for i in range(min(SEEDS_PER_SPLIT, SERVED_SEEDS[split]))]
        report = await check_archetype(archetype_id, split, seeds, executor, registry)
        assert report.total == len(seeds)
        failures.extend((split, *failure) for failure in report.failures)
    assert not failures, f"{len(failures)} failing seeds, first: {failures[:3]}"
