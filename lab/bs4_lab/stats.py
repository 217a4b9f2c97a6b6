"""Small-sample statistics for comparing learning stages: means, proportions, paired tests.

Three building blocks, each a thin, validated wrapper around ``scipy.stats``:

* ``mean_interval``: the mean with a 95% Student t-interval (``ttest_1samp``). A t-interval,
  not a bootstrap: per-archetype groups hold a handful of rows, and at n = 5..20 a
  percentile or BCa bootstrap of a mean is too narrow (it ignores the t quantile and the
  ``n - 1`` correction), while the t-interval is deterministic, needs no seed and agrees
  with the bootstrap once n is large. It can be clipped to the values' known range.
* ``proportion``: k of n with a Wilson score interval (``binomtest(...).proportion_ci``),
  which stays inside [0, 1] and is sensible at 0/n and n/n, where the Wald interval is not.
* ``paired_test``: two stages on the same rows. The p-value is a two-sided sign-flip
  permutation test of the mean paired difference (``permutation_test``): it tests exactly
  the statistic reported, handles the many ties of a discrete reward (a zero difference
  flips to itself), and is exact when few rows differ. The Wilcoxon test was not used:
  with ties and zeros it falls back to a normal approximation, and it tests a rank
  statistic rather than the mean. Error rows (reward ``None``) count as 0 and are counted.

Degenerate samples never crash: n = 1 has no interval (``None`` with a note), and a
constant sample has a zero-width interval with a note saying why. Empty input, NaN or
mismatched lengths raise ``ValueError``: those are bugs upstream, not results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

# scipy ships no type information (scipy-stubs is not a dependency; pyproject's mypy override):
# its functions are Any.
from scipy import stats

CONFIDENCE = 0.95
PERMUTATION_RESAMPLES = 50_000
"""Sign-flip resamples: the test is exact while 2**m <= this (m rows that differ, m <= 15);
past that it is Monte Carlo with a fixed seed: p is reproducible and at least 2/50_001."""
PERMUTATION_BATCH = 5_000
"""Resamples per vectorised batch: bounds memory (batch x rows floats) for large subsets."""
PERMUTATION_SEED = 20_240_601
TIE_TOLERANCE = 1e-9
"""Rewards are rounded to 6 places by the grader; closer than this is the same reward."""

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MeanInterval:
    """A mean with its 95% interval; ``low``/``high`` are ``None`` when there is none."""

    n: int
    mean: float
    low: float | None
    high: float | None
    method: str
    note: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Proportion:
    """``k`` of ``n`` with its Wilson 95% interval."""

    k: int
    n: int
    rate: float
    low: float
    high: float
    method: str = "wilson"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PairedTest:
    """Stage ``after`` against stage ``before`` on the same rows (difference = after - before)."""

    n_pairs: int
    mean_before: float
    mean_after: float
    mean_difference: MeanInterval
    p_value: float
    exact: bool
    """True when every sign assignment was enumerated (else Monte Carlo with a fixed seed)."""
    improved: int
    worse: int
    tied: int
    errors_before: int
    errors_after: int
    method: str = "sign-flip permutation test of the mean difference, two-sided"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _as_array(values: Sequence[float], what: str) -> FloatArray:
    """Finite floats, refusing empty input, non-numbers and NaN/inf with a clear message."""
    if len(values) == 0:
        raise ValueError(f"{what}: no values (an empty sample has no mean or interval)")
    for index, value in enumerate(values):
        # bool is an int subclass: a True reward is a bug upstream, not 1.0.
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{what}: value {index} is {value!r}, not a number")
    array = np.asarray(values, dtype=np.float64)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{what}: values must be finite, got NaN or infinity")
    return array


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1 (exclusive), got {confidence!r}")


def mean_interval(
    values: Sequence[float],
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] | None = None,
) -> MeanInterval:
    """The mean of ``values`` with a Student t-interval.

    ``bounds`` (lowest, highest possible value) clips the interval: the true mean lies in
    that range, so clipping never lowers coverage and avoids showing impossible rewards.
    n = 1 gives no interval (no spread to estimate); a constant sample gives a zero-width
    one, with a note that no spread was observed (not that the mean is known exactly).
    """
    _check_confidence(confidence)
    array = _as_array(values, "mean_interval")
    if bounds is not None and not bounds[0] <= bounds[1]:
        raise ValueError(f"mean_interval: bounds must be (low, high) with low <= high: {bounds}")
    if bounds is not None and (array.min() < bounds[0] or array.max() > bounds[1]):
        raise ValueError(
            f"mean_interval: values span {array.min()}..{array.max()}, outside bounds {bounds}"
        )
    n, mean = len(array), float(np.mean(array))
    method = f"student-t {confidence:.0%}"
    if n == 1:
        return MeanInterval(n, mean, None, None, method, "n=1: no interval without spread")
    if float(np.ptp(array)) == 0.0:
        note = f"all {n} values equal: zero-width interval (no spread observed)"
        return MeanInterval(n, mean, mean, mean, method, note)
    interval = stats.ttest_1samp(array, popmean=0.0).confidence_interval(confidence)
    low, high = float(interval.low), float(interval.high)
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return MeanInterval(n, mean, low, high, method)


def proportion(k: int, n: int, confidence: float = CONFIDENCE) -> Proportion:
    """``k`` successes of ``n`` with a Wilson score interval."""
    _check_confidence(confidence)
    for name, value in (("k", k), ("n", n)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"proportion: {name} must be an int, got {value!r}")
    if n <= 0:
        raise ValueError(f"proportion: n must be positive, got {n} (0 of 0 has no rate)")
    if not 0 <= k <= n:
        raise ValueError(f"proportion: k must be in 0..n, got k={k}, n={n}")
    interval = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return Proportion(k, n, k / n, float(interval.low), float(interval.high))


def _mean_statistic(sample: FloatArray, axis: int) -> FloatArray:
    result: FloatArray = np.mean(sample, axis=axis)
    return result


def _errors_as_zero(values: Sequence[float | None]) -> tuple[list[float], int]:
    errors = sum(value is None for value in values)
    return [0.0 if value is None else value for value in values], errors


def paired_test(
    before: Sequence[float | None],
    after: Sequence[float | None],
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] | None = None,
) -> PairedTest:
    """Compare two stages on the same rows, in the same order.

    ``None`` marks an error row: it counts as reward 0 (a stage that crashes on a row did
    not solve it) and is counted in ``errors_before``/``errors_after``. ``bounds`` is the
    range of one reward; the difference interval is clipped to ``(lo - hi, hi - lo)``.
    """
    _check_confidence(confidence)
    if len(before) != len(after):
        raise ValueError(
            f"paired_test: {len(before)} rows before and {len(after)} after; "
            "a paired test needs the same rows in the same order"
        )
    before_values, errors_before = _errors_as_zero(before)
    after_values, errors_after = _errors_as_zero(after)
    x = _as_array(before_values, "paired_test (before)")
    y = _as_array(after_values, "paired_test (after)")
    diff = y - x
    diff[np.abs(diff) <= TIE_TOLERANCE] = 0.0
    spread = None if bounds is None else (bounds[0] - bounds[1], bounds[1] - bounds[0])
    mean_difference = mean_interval(list(diff), confidence, spread)
    # A zero difference flips to itself, so only the rows that differ carry information:
    # dropping them leaves the p-value unchanged and makes the test exact more often.
    nonzero = diff[diff != 0.0]
    if nonzero.size <= 1:
        # Both signs of a single difference are as extreme as it: the exact two-sided p is 1
        # (and scipy refuses a one-observation sample).
        p_value, exact = 1.0, True
    else:
        exact = 2.0**nonzero.size <= PERMUTATION_RESAMPLES
        result = stats.permutation_test(
            (nonzero,),
            _mean_statistic,
            permutation_type="samples",
            vectorized=True,
            n_resamples=PERMUTATION_RESAMPLES,
            batch=PERMUTATION_BATCH,
            alternative="two-sided",
            rng=np.random.default_rng(PERMUTATION_SEED),
        )
        p_value = min(1.0, float(result.pvalue))
    return PairedTest(
        n_pairs=len(diff),
        mean_before=float(np.mean(x)),
        mean_after=float(np.mean(y)),
        mean_difference=mean_difference,
        p_value=p_value,
        exact=exact,
        improved=int(np.sum(diff > 0.0)),
        worse=int(np.sum(diff < 0.0)),
        tied=int(np.sum(diff == 0.0)),
        errors_before=errors_before,
        errors_after=errors_after,
    )
