"""The experiment's design, fixed before any evaluation: which archetypes are held out, which
rows each stage trains and is evaluated on. Written to ``plan.json`` and never changed on resume.

Held-out archetypes are a seeded draw per difficulty (easy, medium) plus at least one
limitation kind; every other archetype of those difficulties trains, or, with
``trained_archetypes`` N, only N of them: the evaluated ones (subset (a) and the trained
limitation kind of (c)) plus a seeded draw of the rest, so that a fixed episode budget covers
each trained archetype more often; the others are then neither trained nor evaluated. Hard
archetypes are left out entirely: a 0.5B model does not solve them, so they would spend CPU
time on zeros.
Evaluation rows come from the ``eval`` split (seeds disjoint from ``train``); training rows
from ``train``. Nothing here looks at a model's output.

A powered plan (``trained_rows``, ``held_out_rows``, ``limitation_rows`` > 0) keeps every
archetype draw above and replaces the eval rows: every trained solvable archetype, every
held-out solvable archetype and every limitation archetype (trained or held out) gets that many
rows, drawn from a stream of their own. The pre-registration (``design``: endpoints, tests,
subset sizes, stage settings, and why the plan differs from an earlier run) is written into
``plan.json`` with the plan, before any evaluation runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from random import Random
from typing import Any

from bs4_env.tasks.model import Difficulty
from bs4_env.tasks.registry import Registry
from bs4_env.tasks.splits import EVAL_SEEDS_PER_ARCHETYPE, seed_for

PLAN_FILE = "plan.json"
SUBSETS = ("trained", "held_out", "limitation")
_EASY = (Difficulty.PRIMER, Difficulty.EASY)


@dataclass(frozen=True)
class PlanSettings:
    """What the user chooses; everything else is drawn from ``seed``."""

    seed: int = 0
    held_out_easy: int = 2
    held_out_medium: int = 2
    held_out_limitation: int = 1
    eval_trained_archetypes: int = 8
    eval_rows_per_archetype: int = 3
    sft_episodes: int = 300
    rl_archetypes: int = 6
    trained_archetypes: int = 0  # 0: every archetype not held out (nor hard)
    # A powered plan: rows per archetype of every trained solvable, held-out solvable and
    # limitation archetype (0: the draws above decide the eval rows, as before).
    trained_rows: int = 0
    held_out_rows: int = 0
    limitation_rows: int = 0

    @property
    def powered(self) -> bool:
        return self.trained_rows > 0


@dataclass(frozen=True)
class Plan:
    settings: PlanSettings
    trained: list[str]
    held_out: list[str]
    rl_archetypes: list[str]
    eval_rows: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    # The pre-registration (bs4_lab.design); None for plans made before it existed.
    design: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data = {
            "settings": asdict(self.settings),
            "trained": self.trained,
            "held_out": self.held_out,
            "rl_archetypes": self.rl_archetypes,
            "eval_rows": {k: [list(r) for r in v] for k, v in self.eval_rows.items()},
        }
        return data if self.design is None else {**data, "design": self.design}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Plan:
        return cls(
            PlanSettings(**data["settings"]),
            list(data["trained"]),
            list(data["held_out"]),
            list(data["rl_archetypes"]),
            {k: [(str(a), int(s)) for a, s in v] for k, v in data["eval_rows"].items()},
            data.get("design"),
        )


def _draw(rng: Random, pool: list[str], k: int, what: str) -> list[str]:
    if k > len(pool):
        raise ValueError(f"cannot hold out {k} {what} archetypes: only {len(pool)} exist")
    return sorted(rng.sample(sorted(pool), k))


def _eval_rows(rng: Random, archetypes: list[str], per: int) -> list[tuple[str, int]]:
    rows = []
    for archetype_id in archetypes:
        for index in sorted(rng.sample(range(EVAL_SEEDS_PER_ARCHETYPE), per)):
            rows.append((archetype_id, seed_for("eval", index)))
    return rows


def make_plan(registry: Registry, settings: PlanSettings) -> Plan:
    """Draw the held-out set and the rows; the same settings always give the same plan."""
    rng = Random(f"learn-plan:{settings.seed}")
    specs = [s for s in registry.specs() if s.difficulty is not Difficulty.HARD]
    easy = [s.id for s in specs if s.solvable and s.difficulty in _EASY]
    medium = [s.id for s in specs if s.solvable and s.difficulty is Difficulty.MEDIUM]
    limits = [s.id for s in specs if not s.solvable]
    held_out = sorted(
        _draw(rng, easy, settings.held_out_easy, "easy")
        + _draw(rng, medium, settings.held_out_medium, "medium")
        + _draw(rng, limits, settings.held_out_limitation, "limitation")
    )
    if settings.held_out_limitation < 1:
        raise ValueError("hold out at least one limitation archetype")
    trained = sorted(s.id for s in specs if s.id not in held_out)
    trained_solvable = [a for a in trained if registry.get(a).solvable]
    shown = _draw(rng, trained_solvable, settings.eval_trained_archetypes, "trained eval")
    per = settings.eval_rows_per_archetype
    # The draws keep this order: a plan is a function of the seed, and saved plans must remain
    # what their settings make.
    eval_rows = {
        "trained": _eval_rows(rng, shown, per),
        "held_out": _eval_rows(rng, [a for a in held_out if registry.get(a).solvable], per),
        "limitation": _eval_rows(rng, [a for a in held_out if not registry.get(a).solvable], per),
    }
    trained_limitation = _draw(rng, [a for a in trained if a in limits], 1, "trained")
    eval_rows["limitation"] += _eval_rows(rng, trained_limitation, per)
    # RL trains on archetypes whose eval rows are measured (subset (a)), so its effect shows
    # where it was trained and, through (b), where it was not.
    rl = sorted(rng.sample(shown, min(settings.rl_archetypes, len(shown))))
    if settings.trained_archetypes:
        # Drawn last, so that the draws above (and every plan made without it) stay the same.
        evaluated = sorted(set(shown) | set(trained_limitation))
        rest = [a for a in trained if a not in evaluated]
        extra = settings.trained_archetypes - len(evaluated)
        if extra < 0 or extra > len(rest):
            raise ValueError(
                f"trained_archetypes must be between {len(evaluated)} (the evaluated ones) and"
                f" {len(evaluated) + len(rest)}, got {settings.trained_archetypes}"
            )
        trained = sorted(evaluated + _draw(rng, rest, extra, "extra trained"))
    if settings.powered:
        eval_rows = _powered_rows(registry, settings, trained, held_out)
    return Plan(settings, trained, held_out, rl, eval_rows)


def _powered_rows(
    registry: Registry, settings: PlanSettings, trained: list[str], held_out: list[str]
) -> dict[str, list[tuple[str, int]]]:
    """Every archetype of each subset, ``*_rows`` rows each, from a stream of its own (so
    the archetype draws stay those of the same plan without it)."""
    counts = (settings.trained_rows, settings.held_out_rows, settings.limitation_rows)
    if min(counts) < 1:
        raise ValueError(f"a powered plan needs every *_rows >= 1, got {counts}")
    rng = Random(f"learn-plan-powered:{settings.seed}")
    solvable = [a for a in trained if registry.get(a).solvable]
    limits = sorted(a for a in trained + held_out if not registry.get(a).solvable)
    held = [a for a in held_out if registry.get(a).solvable]
    return {
        "trained": _eval_rows(rng, solvable, settings.trained_rows),
        "held_out": _eval_rows(rng, held, settings.held_out_rows),
        "limitation": _eval_rows(rng, limits, settings.limitation_rows),
    }


def load_or_make_plan(
    folder: Path,
    registry: Registry,
    settings: PlanSettings,
    design: Callable[[Plan], dict[str, Any]] | None = None,
) -> Plan:
    """The plan of an earlier run of this folder (settings must match), else a new one;
    ``design`` makes its pre-registration, written with it (before any stage runs)."""
    path = folder / PLAN_FILE
    if path.is_file():
        plan = Plan.from_json(json.loads(path.read_text()))
        if plan.settings != settings:
            raise ValueError(
                f"{path} was made with other settings ({asdict(plan.settings)}); "
                "use a new --out folder or the same arguments"
            )
        return plan
    plan = make_plan(registry, settings)
    if design is not None:
        plan = replace(plan, design=design(plan))
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(plan.to_json(), indent=1) + "\n")
    return plan
