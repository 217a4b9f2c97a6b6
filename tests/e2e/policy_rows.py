"""Rows of one scripted run in which every policy plays every archetype.

A vf-eval (or classic vf-eval) run is mostly process start-up, so the e2e tests run once with the
scripted server playing a policy per row instead of once per policy (``ScriptedServer(policies=)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scripted_server import POLICY_NAMES

from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.splits import Row

OTHERS = tuple(name for name in POLICY_NAMES if name != "reference")
"""The policies played after the reference policy's own rows."""


@dataclass(frozen=True)
class PolicyRows:
    rows: list[Row]
    """Every row of the run: the reference policy's first, then the others'."""
    assigned: dict[tuple[str, int], str]
    """(archetype, seed) -> the policy the server plays there; unlisted rows are the reference's."""

    def policy_of(self, key: tuple[str, int]) -> str:
        return self.assigned.get(key, "reference")

    def rows_of(self, policy: str) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if self.policy_of((r.archetype_id, r.seed)) == policy)


def policy_rows(split: str, archetypes: Sequence[str], reference_rows: Sequence[Row]) -> PolicyRows:
    """``reference_rows`` (a prefix of ``split``'s rows of ``archetypes``), then the shortest
    further prefix in which every archetype has a row for each other policy (its k-th row there
    plays ``OTHERS[k % len(OTHERS)]``), so every policy plays every archetype at least once."""
    rows = build_rows(DatasetConfig(split=split, archetypes=tuple(archetypes)))
    if list(rows[: len(reference_rows)]) != list(reference_rows):
        raise ValueError("the reference rows must be the split's first rows of these archetypes")
    assigned: dict[tuple[str, int], str] = {}
    seen = dict.fromkeys(archetypes, 0)
    for n, row in enumerate(rows[len(reference_rows) : 400], start=len(reference_rows)):
        if min(seen.values()) >= len(OTHERS):
            return PolicyRows(list(rows[:n]), assigned)
        assigned[(row.archetype_id, row.seed)] = OTHERS[seen[row.archetype_id] % len(OTHERS)]
        seen[row.archetype_id] += 1
    raise ValueError(f"split {split} has too few rows of {list(archetypes)}")
