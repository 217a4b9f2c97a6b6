"""Every archetype's reference program, run in the sandbox and graded by the real grader.

Solvable seeds must score 1.0 and limitation seeds 0.5, on every split.
"""

from __future__ import annotations

import pytest

from bs4_env.checks.solvability import check_archetype
from bs4_env.sandbox.base import Executor
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
        seeds = [seed_for(split, i) for i in range(SEEDS_PER_SPLIT)]
        report = await check_archetype(archetype_id, split, seeds, executor, registry)
        assert report.total == SEEDS_PER_SPLIT
        failures.extend((split, *failure) for failure in report.failures)
    assert not failures, f"{len(failures)} failing seeds, first: {failures[:3]}"
