"""The episode mix: shares by episode kind, and which rows get which kind.

Kinds: ``normal`` (the writers' episodes with their variants), ``recovery`` and ``budget``
(``bs4_env.sft.recovery``), ``defensive`` (``bs4_env.sft.defensive``). Each kind gets
``round(share x rows)`` rows (largest remainders; ``normal`` the rest). Rows are visited in a
seeded order, the scarcest kinds first (budget, recovery, defensive), and a row goes to a kind
where that kind's plan can be made for it here; where too few rows can take a kind, the
shortfall stays ``normal`` and is reported. A row whose kind plan then fails its replay falls
back to a normal episode (counted).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random

from bs4_env.sft.defensive import with_defensive
from bs4_env.sft.episodes import BaseDraw, base_draw
from bs4_env.sft.plan import Plan
from bs4_env.sft.recovery import BUDGET_CALLS, with_budget, with_recovery
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import Row

EPISODE_KINDS = ("normal", "recovery", "budget", "defensive")
SPECIAL_KINDS = ("budget", "recovery", "defensive")  # assignment order: scarcest first
PLANS_PER_KIND = 2


@dataclass(frozen=True)
class Mix:
    """Shares of rows by episode kind (``normal`` gets the rest) and the budgets that
    budget episodes run under."""

    recovery: float = 0.20
    budget: float = 0.10
    defensive: float = 0.15
    budget_calls: tuple[int, ...] = field(default=BUDGET_CALLS)

    def __post_init__(self) -> None:
        for kind in SPECIAL_KINDS:
            share = getattr(self, kind)
            if not 0.0 <= share <= 1.0:
                raise ValueError(f"the {kind} share must be in [0, 1], got {share}")
        if sum(getattr(self, kind) for kind in SPECIAL_KINDS) > 1.0 + 1e-9:
            raise ValueError("the recovery, budget and defensive shares add up to more than 1")
        if not self.budget_calls or min(self.budget_calls) < 1:
            raise ValueError(f"budget calls must be >= 1, got {self.budget_calls}")

    def shares(self) -> dict[str, float]:
        special = {kind: getattr(self, kind) for kind in SPECIAL_KINDS}
        normal = round(max(0.0, 1.0 - sum(special.values())), 6)
        return {"normal": normal, **{k: special[k] for k in EPISODE_KINDS[1:]}}

    def targets(self, rows: int) -> dict[str, int]:
        """Rows per kind: largest remainders, so they add up to ``rows``."""
        exact = {kind: share * rows for kind, share in self.shares().items()}
        counts = {kind: math.floor(value) for kind, value in exact.items()}
        left = rows - sum(counts.values())
        for kind in sorted(exact, key=lambda k: (counts[k] - exact[k], EPISODE_KINDS.index(k))):
            if left <= 0:
                break
            counts[kind] += 1
            left -= 1
        return counts


def parse_mix(text: str, budget_calls: Sequence[int] = BUDGET_CALLS) -> Mix:
    """``recovery=0.2,budget=0.1,defensive=0.15`` (kinds left out keep their default)."""
    given: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, sep, value = part.partition("=")
        if not sep or name.strip() not in SPECIAL_KINDS:
            raise ValueError(
                f"bad mix part {part!r}; write KIND=SHARE with KIND one of {list(SPECIAL_KINDS)}"
            )
        try:
            given[name.strip()] = float(value)
        except ValueError:
            raise ValueError(f"bad share in {part!r}: not a number") from None
    return Mix(**given, budget_calls=tuple(budget_calls))


# Per solvable row, its base plans, parser and the draw's RNG state (not its task: a few
# thousand pages would not fit); the row's episode goes on from them (``Assignment.bases``).
Bases = dict[Row, BaseDraw]


def episode_rng(row: Row, seed: int) -> Random:
    """The RNG of a row's normal episode (``build.episode_for``), whose base plans the mix
    draws first."""
    return Random(f"sft:{seed}:{row.archetype_id}:{row.seed}")


def _bases(
    row: Row, registry: Registry, seed: int, cache: Bases
) -> tuple[Task, tuple[Plan, ...], str]:
    task = build_task(row.archetype_id, row.seed, row.split, registry)
    if not task.solvable:
        return task, (), ""
    if row not in cache:
        cache[row] = base_draw(task, registry, episode_rng(row, seed))
    drawn = cache[row]
    return task, drawn.plans, drawn.parser


def kind_plans(
    row: Row, registry: Registry, seed: int, kind: str, mix: Mix, cache: Bases | None = None
) -> list[Plan]:
    """Up to ``PLANS_PER_KIND`` plans of ``kind`` for ``row`` (empty where none applies)."""
    task, plans, parser = _bases(row, registry, seed, {} if cache is None else cache)
    if not task.solvable or task.is_multipage:
        return []
    rng = Random(f"sft-{kind}:{seed}:{row.archetype_id}:{row.seed}")
    made: list[Plan] = []
    for plan in plans:
        if kind == "recovery":
            found = with_recovery(task, plan, rng)
        elif kind == "budget":
            found = with_budget(task, plan, rng, parser, mix.budget_calls)
        else:
            found = with_defensive(task, plan)
        if found is not None:
            made.append(found)
        if len(made) >= PLANS_PER_KIND:
            break
    return made


@dataclass
class Assignment:
    """Each row's episode kind and its kind plans (empty for ``normal``)."""

    kinds: list[str]
    plans: list[list[Plan]]
    targets: dict[str, int]
    short: dict[str, int]
    """Per kind, rows wanted but not found (too few rows where the kind applies)."""
    bases: Bases = field(default_factory=dict)
    """The base draws made while assigning, by row: a row's episode starts from its own
    (``episode_rng``) instead of drawing the same plans again."""


def assign(rows: Sequence[Row], registry: Registry, seed: int, mix: Mix) -> Assignment:
    """Which rows get which kind (module docstring); deterministic in its arguments."""
    targets = mix.targets(len(rows))
    kinds = ["normal"] * len(rows)
    plans: list[list[Plan]] = [[] for _ in rows]
    order = list(range(len(rows)))
    Random(f"sft-mix:{seed}").shuffle(order)
    short: dict[str, int] = {}
    cache: Bases = {}
    for kind in SPECIAL_KINDS:
        need = targets[kind]
        for index in order:
            if need == 0:
                break
            if kinds[index] != "normal":
                continue
            made = kind_plans(rows[index], registry, seed, kind, mix, cache)
            if made:
                kinds[index], plans[index] = kind, made
                need -= 1
        if need:
            short[kind] = need
    return Assignment(kinds, plans, targets, short, cache)
