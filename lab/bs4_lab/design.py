"""The learning run's pre-registration: what is tested, how, on which rows, with which settings.

Written into ``plan.json`` (key ``design``) when the plan is made, before any stage runs, so
the primary endpoint, the test, the subset sizes and every stage's settings are fixed before
a single evaluation is seen. Afterwards:

* every stage refuses to run with settings other than the registered ones
  (:func:`check_stage_settings`), and the report refuses a stage marker that records others;
* where the plan's seed or trained set differs from an earlier run (``--previous``), the plan
  must say why (``--why``) before anything is evaluated.

The primary endpoint compares expert iteration with SFT at the level of archetypes (rows of
one archetype are correlated; archetypes are the units that were sampled), with a two-sided
sign-flip permutation test on the per-archetype mean differences. Rows stay as secondary
figures.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bs4_lab.plan import PLAN_FILE, Plan

ALPHA = 0.05
MIN_GAIN = 0.10
PRIMARY_TEST = (
    "two-sided sign-flip permutation test of the mean per-archetype difference in greedy reward"
    " (each archetype's mean over its rows; exact when 2^m <= 50,000 for m archetypes that"
    " differ, else Monte Carlo with a fixed seed)"
)


def _subset_sizes(plan: Plan) -> dict[str, dict[str, int]]:
    sizes = {}
    for subset, rows in plan.eval_rows.items():
        archetypes = {a for a, _ in rows}
        sizes[subset] = {"archetypes": len(archetypes), "rows": len(rows)}
    return sizes


def previous_run_facts(folder: Path) -> dict[str, Any]:
    """The seed and trained set of an earlier run folder (for the comparison the plan states)."""
    path = folder / PLAN_FILE
    if not path.is_file():
        raise ValueError(f"--previous {folder}: no {PLAN_FILE} there")
    data = json.loads(path.read_text())
    return {
        "folder": str(folder),
        "seed": data["settings"]["seed"],
        "trained": list(data["trained"]),
        "held_out": list(data["held_out"]),
    }


def differences_from(plan: Plan, previous: Mapping[str, Any]) -> list[str]:
    """What the new plan changes against an earlier run: seed, trained set, held-out set."""
    changes = []
    if plan.settings.seed != previous["seed"]:
        changes.append(f"seed {previous['seed']} -> {plan.settings.seed}")
    for what, new in (("trained", plan.trained), ("held_out", plan.held_out)):
        old = set(previous[what])
        if old != set(new):
            changes.append(
                f"{what}: {len(set(new) - old)} archetypes added, {len(old - set(new))} removed"
            )
    return changes


def make_design(
    plan: Plan,
    stage_settings: Mapping[str, Any],
    compared: tuple[str, str],
    why: str | None,
    previous: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The pre-registration of ``plan``: ``compared`` is (before, after) of the primary test."""
    changes = [] if previous is None else differences_from(plan, previous)
    if changes and not why:
        raise ValueError(
            f"this plan differs from the run in {previous['folder']} ({'; '.join(changes)})"  # type: ignore[index]
            ": say why with --why before anything is evaluated"
        )
    before, after = compared
    design = {
        "registered": "before any evaluation of this run",
        "why": why,
        "previous_run": None if previous is None else {**previous, "differences": changes},
        "primary": {
            "comparison": f"{before} -> {after}",
            "subset": "trained",
            "measure": "greedy reward, each archetype's mean over its eval rows",
            "unit": "archetype",
            "test": PRIMARY_TEST,
            "alpha": ALPHA,
            "target_mean_gain": MIN_GAIN,
            "success": f"p < {ALPHA} and mean gain >= {MIN_GAIN}",
        },
        "secondary": [
            {
                "subset": "held_out",
                "comparison": f"base -> {after}, base -> {before}",
                "measures": [
                    "mean NLL per assistant token of verified (replayed) episodes of the"
                    " held-out archetypes, paired per episode",
                    "share of first run_python programs that ran with exit status 0",
                    "share of solvable rows answered (status ok), not abstained",
                ],
                "success": "at least one measure better than base with a 95% interval"
                " excluding zero",
            },
            {
                "subset": "limitation",
                "comparison": f"{before} -> {after}",
                "success": f"no drop significant at {ALPHA} (same test as the primary, rows)",
            },
            {"subset": "every subset", "figures": "rows as units, as secondary figures"},
        ],
        "subsets": _subset_sizes(plan),
        "stages": {name: _plain(value) for name, value in stage_settings.items()},
    }
    if before == "control":
        from bs4_lab.design_v4 import registered_v4

        design.update(_plain(registered_v4(plan, stage_settings)))
    return design


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def check_stage_settings(plan: Plan, stage: str, settings: Mapping[str, Any]) -> None:
    """Refuse a stage whose settings differ from the registered ones (plans without a design,
    made before it existed, are not checked)."""
    if plan.design is None:
        return
    registered = plan.design["stages"]
    if stage not in registered:
        raise ValueError(
            f"stage {stage!r} was not registered in the plan (registered: {sorted(registered)})"
        )
    expected, got = registered[stage], _plain(settings)
    if expected != got:
        differ = sorted(k for k in set(expected) | set(got) if expected.get(k) != got.get(k))
        shown = ", ".join(f"{k} {expected.get(k)!r} -> {got.get(k)!r}" for k in differ)
        raise ValueError(
            f"stage {stage!r} would run with settings other than the registered ones ({shown});"
            " run it with the plan's settings, or start a new run folder"
        )
