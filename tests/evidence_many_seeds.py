"""One walk over the limitation tasks that the evidence tests' many-seeds checks grade.

``test_grading_evidence`` (the inventory policy: 100 train and 100 eval seeds, 20 bench seeds),
``test_grading_evidence_blocker`` (every citation of the blocker: 50 train and 30 eval seeds),
``test_grading_evidence_glue`` (glued inventories: 5 train, 5 eval and 20 bench seeds) and
``test_grading_evidence_ids`` (the blocker's token plus one outside id: 10 train, 10 eval
and 20 bench seeds) grade the first seeds of the same tasks. Run one after another, each
generated its tasks and built the grader's index of each page (``page_identifiers``, cached
for the last 32 tasks) again, and the blocker, glue and ids checks parsed each page for its
blocker again. Walked here task by task, with every registered check run on a task before
the next task, each task is generated once, its blocker found once and its index built once
for all of them.

Each test module registers its per-task check at import and asserts on what its check
returned, for exactly the tasks it names: nothing a separate run checked is left out. The
four tests share the xdist group ``GROUP`` so that one worker walks the corpus once. A run
that collects only some of the modules walks only their checks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for

GROUP = "evidence-many-seeds"
SPLITS = ("train", "eval", "bench")


@dataclass(frozen=True)
class Check:
    """A per-task check on the first ``seeds[split]`` seeds of each limitation archetype."""

    seeds: Mapping[str, int]
    run: Callable[[Task], Any]


_CHECKS: dict[str, Check] = {}


def register(name: str, seeds: Mapping[str, int], run: Callable[[Task], Any]) -> None:
    """Add a check to the walk (once per name; a module imported twice registers once)."""
    unknown = set(seeds) - set(SPLITS)
    if unknown:
        raise ValueError(f"{name}: unknown splits {sorted(unknown)}")
    if name in _CHECKS and _CHECKS[name].seeds != seeds:
        raise ValueError(f"{name} is registered already with other seeds")
    _CHECKS[name] = Check(dict(seeds), run)


def results(name: str) -> list[tuple[Task, Any]]:
    """What check ``name`` returned on each of its tasks, in walk order (split by split,
    archetype by archetype, seed by seed). A check that raised on a task raises here, in
    its own test, not in whichever test started the walk."""
    if name not in _CHECKS:
        raise KeyError(f"no check {name!r} is registered (registered: {sorted(_CHECKS)})")
    found, errors = _walk(tuple(sorted(_CHECKS)))
    if name in errors:
        task, error = errors[name]
        raise AssertionError(f"{name} failed on {task.archetype_id}/{task.seed}") from error
    return found[name]


@functools.lru_cache(maxsize=1)
def _walk(
    names: tuple[str, ...],
) -> tuple[dict[str, list[tuple[Task, Any]]], dict[str, tuple[Task, Exception]]]:
    registry = default_registry()
    found: dict[str, list[tuple[Task, Any]]] = {name: [] for name in names}
    errors: dict[str, tuple[Task, Exception]] = {}
    for split in SPLITS:
        most = max(_CHECKS[name].seeds.get(split, 0) for name in names)
        for spec in registry:
            if spec.solvable:
                continue
            for index in range(most):
                task = build_task(spec.id, seed_for(split, index), split, registry)
                for name in names:
                    if name in errors or index >= _CHECKS[name].seeds.get(split, 0):
                        continue
                    try:
                        found[name].append((task, _CHECKS[name].run(task)))
                    except Exception as error:  # raised again by ``results`` in its own test
                        errors[name] = (task, error)
    return found, errors
