"""Run 4's registered design: EI against the equal-compute imitation control, and its secondaries.

The primary endpoint keeps run 3's test (archetypes as units, exact two-sided sign-flip test,
p < 0.05 and a mean gain >= 0.10) but compares EI with the control arm (``control_stage``)
instead of with SFT, so that a gain is put on the reward, not on more training. The plan
also registers the secondary measures the report computes (``secondary``), the run-3
baseline of the warm-start target, and the CPU-time estimate (``budget``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bs4_lab.budget import estimate
from bs4_lab.plan import Plan
from bs4_lab.secondary import WARM_START_TARGET, warm_start_baseline

VERSION = 4


def registered_v4(plan: Plan, stages: Mapping[str, Any]) -> dict[str, Any]:
    """The keys a run-4 design adds to (or replaces in) ``design.make_design``'s."""
    real = stages.get("eval-real")
    return {
        "version": VERSION,
        "secondary": [
            {
                "subset": "held_out",
                "comparison": "control -> ei (and sft -> each)",
                "measures": [
                    "greedy reward, archetypes as units and rows as units",
                    "mean NLL per assistant token of verified held-out episodes, paired per"
                    " episode (transfer stage)",
                    "share of first run_python programs that ran with exit status 0",
                    "share of solvable rows answered (status ok), not abstained",
                ],
            },
            {
                "subset": "limitation",
                "comparison": "control -> ei",
                "success": "no drop significant at 0.05 (sign-flip test, rows as units)",
            },
            {
                "subset": "real",
                "rows": None if real is None else real["rows"],
                "pages_version": None if real is None else real["pages_version"],
                "models": ["base", "sft", "ei", "control"],
                "measures": [
                    "greedy reward",
                    "tool use",
                    "first program ran (exit 0)",
                    "solvable rows answered (status ok)",
                    "spurious abstentions (status limit on an extractable page)",
                ],
                "comparison": "control -> ei and sft -> ei, rows as units",
                "target": "the best adapter gives at least one right answer",
            },
            {
                "subset": "trained",
                "model": "sft",
                "measure": "share of rows with no final answer plus solvable rows abstained on",
                "comparison": "this run's SFT against run 3's SFT (baseline below), unpaired"
                " (other rows): Fisher exact test; also on the archetypes both runs evaluated",
                "target": WARM_START_TARGET,
                "baseline": warm_start_baseline(),
            },
            {"subset": "every subset", "figures": "rows as units, as secondary figures"},
        ],
        "budget": estimate(plan, stages),
    }
