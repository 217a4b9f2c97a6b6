"""Checks shared by the limitation-twin test modules (one limitation archetype vs its twins).

``test_limitation_twins`` and ``test_static_copy_twins`` cover different families with the
same checks: same reference program, planned request mix, same mix on the twin, and
classifiers (``bs4_env.checks.leak_classifiers``, as in ``test_leaks``) that must not tell a
limitation archetype from its twins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from bs4_env.checks.leak_classifiers import page_accuracy, prompt_accuracy
from bs4_env.tasks.model import LimitReason, Task
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for

MIX_SEEDS = 300
TRAIN, TEST = 150, 100
MARGIN = 0.1

_CACHE: dict[tuple[str, str], list[Task]] = {}


def cached_tasks(archetype_id: str, split: str, n: int, registry: Registry) -> list[Task]:
    """The first ``n`` tasks of a split, generated once per test session."""
    done = _CACHE.setdefault((archetype_id, split), [])
    done.extend(
        build_task(archetype_id, seed_for(split, i), split, registry) for i in range(len(done), n)
    )
    return done[:n]


def check_same_program(limitation: str, twin: str, registry: Registry) -> None:
    assert registry.get(twin).solvable and not registry.get(limitation).solvable
    assert registry.reference_solution(twin) == registry.reference_solution(limitation)


def check_reason_and_planned_mix(
    limitation: str, reason: LimitReason, plan: Mapping[str, float], registry: Registry
) -> None:
    tasks = cached_tasks(limitation, "train", MIX_SEEDS, registry)
    assert {t.limitation.reasons for t in tasks if t.limitation} == {(reason,)}
    shares = Counter(t.query_template for t in tasks)
    assert set(shares) == set(plan)
    for template, planned in plan.items():
        assert abs(shares[template] / MIX_SEEDS - planned) <= 0.08, (template, shares)


def check_same_request_mix(limitation: str, twin: str, registry: Registry) -> None:
    ours = Counter(t.query_template for t in cached_tasks(limitation, "train", MIX_SEEDS, registry))
    theirs = Counter(t.query_template for t in cached_tasks(twin, "train", MIX_SEEDS, registry))
    assert set(ours) == set(theirs)
    for template in ours:
        assert abs(ours[template] - theirs[template]) / MIX_SEEDS <= 0.12, (template, theirs)


def twin_accuracy(
    limitation: str, twins: tuple[str, ...], registry: Registry, features: str
) -> float:
    """Held-out accuracy telling ``limitation`` from as many twin pages (``prompt`` or ``page``)."""

    def sample(split: str, n: int) -> list[Task]:
        ours = cached_tasks(limitation, split, n, registry)
        per_twin = n // len(twins)
        return ours + [t for twin in twins for t in cached_tasks(twin, split, per_twin, registry)]

    train, test = sample("train", TRAIN), sample("eval", TEST)
    if features == "prompt":
        return prompt_accuracy(train, test)
    return page_accuracy(train, test)[0]
