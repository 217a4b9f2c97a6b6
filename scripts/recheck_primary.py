"""Recompute a learning run's paired archetype-level comparison from its eval documents alone.

An independent check of the figures ``bs4-env learn``'s report stage writes (``summary.json``,
key ``paired``): it reads two ``bs4-env eval`` documents of the same rows (for example
``eval-ei/trained-greedy.json`` and ``eval-control/trained-greedy.json``), and recomputes each
archetype's mean reward (error rows as 0), the mean paired difference with its Student t 95%
interval, and the two-sided sign-flip p-value. It shares no code with ``bs4_lab`` (only numpy
and scipy's t distributions), so a defect in the lab's comparison code does not reproduce here.

The p-value is exact (every sign assignment enumerated) while at most ``EXACT_LIMIT`` archetypes
differ; past that it is Monte Carlo with ``--resamples`` draws and a seed of its own, printed
with its standard error. Beside them: the sd of the per-archetype differences and the power
that sd gives a two-sided t test at 0.05 for a true gain of ``--power-gain`` (default the
registered +0.10), a figure after the fact. With ``--summary`` the lab's figures are compared
with these and the script exits 1 on a mismatch (the mean to 1e-6, the interval to 1e-5, the
p-value within four standard errors of both estimates, or equal when both are exact).

    python scripts/recheck_primary.py BEFORE.json AFTER.json [--summary summary.json
        --subset trained --before sft --after ei]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import nct
from scipy.stats import t as student_t

EXACT_LIMIT = 22  # 2**22 sign assignments: ~4M rows of sums, a few seconds in batches
BATCH = 1 << 16
DEFAULT_RESAMPLES = 1_000_000
SEED = 7_310_2026  # not the lab's seed: an independent draw
TIE = 1e-9  # the grader rounds rewards to 6 places
LAB_RESAMPLES = 50_000  # the lab's Monte Carlo size (bs4_lab.stats.PERMUTATION_RESAMPLES)


class RecheckError(Exception):
    """Documents that cannot be compared (other rows, a malformed record)."""


def archetype_means(path: Path) -> tuple[dict[str, float], set[tuple[str, int]]]:
    """Each archetype's mean reward over its rows (an error row counts 0), and the rows."""
    document = json.loads(path.read_text(encoding="utf-8"))
    rollouts = document.get("rollouts") if isinstance(document, dict) else None
    if not isinstance(rollouts, list) or not rollouts:
        raise RecheckError(f"{path}: no rollouts list (not a bs4-env eval document)")
    groups: dict[str, list[float]] = defaultdict(list)
    seen: set[tuple[str, int]] = set()
    for index, record in enumerate(rollouts):
        archetype, seed, reward = record.get("archetype"), record.get("seed"), record.get("reward")
        if not isinstance(archetype, str) or not isinstance(seed, int):
            raise RecheckError(f"{path}: rollout {index} has no archetype/seed")
        if (archetype, seed) in seen:
            raise RecheckError(f"{path}: row {archetype}/{seed} appears twice")
        seen.add((archetype, seed))
        if reward is not None and (isinstance(reward, bool) or not isinstance(reward, int | float)):
            raise RecheckError(f"{path}: rollout {index} has reward {reward!r}")
        groups[archetype].append(0.0 if reward is None else float(reward))
    return {name: sum(values) / len(values) for name, values in groups.items()}, seen


def sign_flip_p(differences: np.ndarray, resamples: int) -> tuple[float, bool, float]:
    """Two-sided p of the mean difference: (p, exact, Monte Carlo standard error)."""
    nonzero = differences[differences != 0.0]
    m = nonzero.size
    if m <= 1:
        return 1.0, True, 0.0
    observed = abs(nonzero.sum()) - 1e-12 * m  # a sum equal to the observed one counts
    exact = m <= EXACT_LIMIT
    total = 1 << m if exact else resamples
    rng = np.random.default_rng(SEED)
    extreme = 0
    for start in range(0, total, BATCH):
        size = min(BATCH, total - start)
        if exact:  # every sign assignment: the bits of 0 .. 2**m - 1
            bits = (np.arange(start, start + size, dtype=np.int64)[:, None] >> np.arange(m)) & 1
        else:
            bits = rng.integers(0, 2, size=(size, m))
        extreme += int(np.sum(np.abs((bits * 2 - 1) @ nonzero) >= observed))
    p = extreme / total
    error = 0.0 if exact else math.sqrt(max(p * (1 - p), 1 / resamples) / resamples)
    return p, exact, error


def t_test_power(gain: float, sd: float, n: int) -> float | None:
    """Power of the two-sided one-sample t test at 0.05 to find a true mean ``gain`` in ``n``
    units with this ``sd`` (noncentral t; None without a spread)."""
    if n < 2 or sd <= 0:
        return None
    critical = float(student_t.ppf(0.975, n - 1))
    shift = gain / (sd / math.sqrt(n))
    return float(nct.sf(critical, n - 1, shift) + nct.cdf(-critical, n - 1, shift))


def recheck(before: Path, after: Path, resamples: int, power_gain: float = 0.10) -> dict[str, Any]:
    """The paired archetype-level figures of ``after`` minus ``before``, with the observed sd
    of the differences and the power it gives a true gain of ``power_gain``."""
    (means_before, rows_before), (means_after, rows_after) = map(archetype_means, (before, after))
    if rows_before != rows_after:
        raise RecheckError(f"{before} and {after} hold different rows: not a paired comparison")
    names = sorted(means_before)
    x = np.array([means_before[name] for name in names])
    y = np.array([means_after[name] for name in names])
    diff = y - x
    diff[np.abs(diff) <= TIE] = 0.0
    n, mean = diff.size, float(diff.mean())
    half = None  # n = 1: no interval; a constant sample: zero width (the lab's convention)
    sd = float(diff.std(ddof=1)) if n > 1 else 0.0
    if n > 1:
        half = float(student_t.ppf(0.975, n - 1) * sd / math.sqrt(n))
    p, exact, error = sign_flip_p(diff, resamples)
    return {
        "archetypes": n,
        "mean_before": float(x.mean()),
        "mean_after": float(y.mean()),
        "mean_difference": mean,
        "low": None if half is None else max(mean - half, -1.0),
        "high": None if half is None else min(mean + half, 1.0),
        "p_value": p,
        "exact": exact,
        "p_standard_error": error,
        "improved": int((diff > 0).sum()),
        "worse": int((diff < 0).sum()),
        "tied": int((diff == 0).sum()),
        "sd_difference": sd,
        "power_at_gain": {"gain": power_gain, "power": t_test_power(power_gain, sd, n)},
    }


def lab_figures(summary: Path, subset: str, before: str, after: str) -> dict[str, Any]:
    """The lab's archetype-level greedy test of ``before -> after`` on ``subset``."""
    document = json.loads(summary.read_text(encoding="utf-8"))
    wanted = (subset, before, after, "greedy", "archetype")
    tests: list[dict[str, Any]] = document.get("paired", [])
    for test in tests:
        if tuple(test.get(key) for key in ("subset", "before", "after", "runs", "unit")) == wanted:
            return test
    raise RecheckError(f"{summary}: no archetype-level greedy test {subset} {before} -> {after}")


def mismatches(mine: dict[str, Any], lab: dict[str, Any]) -> list[str]:
    """Where the lab's figures differ from the recomputed ones beyond rounding or chance."""
    problems = []
    theirs = lab["mean_difference"]
    for name, lab_name, tolerance in (("mean_difference", "mean", 1e-6), ("low", "low", 1e-5),
                                      ("high", "high", 1e-5)):  # fmt: skip
        value, other = mine[name], theirs[lab_name]
        missing = (value is None) != (other is None)
        if missing or (value is not None and abs(value - other) > tolerance):
            problems.append(f"{name}: recomputed {value}, lab {other}")
    for name in ("improved", "worse", "tied"):
        if mine[name] != lab[name]:
            problems.append(f"{name}: recomputed {mine[name]}, lab {lab[name]}")
    if mine["archetypes"] != lab["n_pairs"]:
        problems.append(f"archetypes: recomputed {mine['archetypes']}, lab {lab['n_pairs']}")
    p = mine["p_value"]
    if mine["exact"] and lab["exact"]:
        allowed = 1e-6  # the lab rounds to 6 places
    else:
        lab_error = math.sqrt(max(p * (1 - p), 1 / LAB_RESAMPLES) / LAB_RESAMPLES)
        allowed = 4 * math.hypot(mine["p_standard_error"], 0 if lab["exact"] else lab_error) + 1e-6
    if abs(p - lab["p_value"]) > allowed:
        shown = f"recomputed {p:.6f}, lab {lab['p_value']} (allowed +-{allowed:.6f})"
        problems.append(f"p_value: {shown}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="eval document of the earlier stage")
    parser.add_argument("after", type=Path, help="eval document of the later stage (same rows)")
    parser.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES)
    parser.add_argument(
        "--power-gain", type=float, default=0.10, help="true gain the power figure is for"
    )
    parser.add_argument("--summary", type=Path, help="the run's summary.json to check")
    parser.add_argument("--subset", default="trained")
    parser.add_argument("--before", dest="before_name", help="stage name in summary.json")
    parser.add_argument("--after", dest="after_name", help="stage name in summary.json")
    args = parser.parse_args(argv)
    if args.resamples < 1000:
        parser.error("--resamples must be at least 1000")
    if args.summary and not (args.before_name and args.after_name):
        parser.error("--summary needs --before and --after (the stage names in it)")
    try:
        mine = recheck(args.before, args.after, args.resamples, args.power_gain)
        print(json.dumps(mine, indent=2))
        if args.summary is None:
            return 0
        problems = mismatches(mine, lab_figures(args.summary, args.subset, args.before_name,
                                                args.after_name))  # fmt: skip
    except (RecheckError, OSError, json.JSONDecodeError, KeyError) as error:
        print(f"recheck_primary: {error}", file=sys.stderr)
        return 2
    for problem in problems:
        print(f"MISMATCH {problem}", file=sys.stderr)
    print("summary.json agrees" if not problems else f"{len(problems)} mismatches", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
