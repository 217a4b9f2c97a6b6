"""Compare learning stages (base, SFT, RL) on the same evaluation rows, with intervals and tests.

Input: for each stage and subset ("trained", "held_out", "limitation"), the greedy
(temperature 0) records of a results document (``records_of`` reads its ``"rollouts"``),
and optionally the sampled records: a list of record lists, either one list per sampling
pass or one list holding every sample; each (archetype, seed) must have the same number of
samples. Output: a JSON-ready summary (``compare_stages``) and its Markdown tables
(``compare_tables.markdown_tables``).

Every figure is over all rows of a group, error rows included as failures (reward 0, not
passed, not well-formed), because that is how the paired tests count them and a stage that
crashes more must not look better for it; ``errors`` says how many there were. Rows are
matched by (archetype, seed), and differing row sets are refused, not silently intersected:
a paired test on different rows would compare different tasks.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from bs4_env.evaluation.report import PASS_THRESHOLD, is_error
from bs4_env.grading.answer import AnswerFormatError, parse_final_answer
from bs4_env.grading.rubric import REWARD_CORRECT, REWARD_SAFETY
from bs4_lab.stats import (
    CONFIDENCE,
    TIE_TOLERANCE,
    mean_interval,
    paired_test,
    proportion,
)

Record = Mapping[str, Any]
RowKey = tuple[str, int]

REWARD_BOUNDS = (REWARD_SAFETY, REWARD_CORRECT)
"""Lowest and highest reward the rubric gives: reward intervals are clipped to this range."""
DIGITS = 6
MAX_KEYS_SHOWN = 5

METHODS = {
    "rows": "every figure is over all rows; error rows count as reward 0, not passed, "
    "not well-formed",
    "reward": f"mean with a Student t {CONFIDENCE:.0%} interval, clipped to the reward range",
    "pass": f"reward >= {PASS_THRESHOLD}; Wilson {CONFIDENCE:.0%} interval",
    "tool_use": "share of rows whose transcript has an assistant tool call; Wilson interval",
    "well_formed": "share of rows whose final answer passes the grader's parse_final_answer; "
    "Wilson interval",
    "spread": "share of rows whose sampled rewards are not all equal (errors as 0); "
    "Wilson interval",
    "paired": "rows matched by (archetype, seed); difference = after - before; two-sided "
    "sign-flip permutation test of the mean difference, t interval; runs 'greedy' pairs "
    "the temperature-0 rewards, runs 'greedy+samples' each row's mean over the greedy run "
    "and its samples (errors as 0)",
    "units": "unit 'archetype' (primary): each archetype's mean over its rows is one value, "
    "so rows of one archetype, which correlate, count once; unit 'row' (secondary): every "
    "row is one value",
    "archetype_level": "mean over archetypes of each archetype's mean reward, Student t "
    "interval over archetypes",
}


class CompareError(ValueError):
    """The stages cannot be compared as given; the message says what differs."""


@dataclass(frozen=True)
class _Row:
    key: RowKey
    reward: float | None
    tool_use: bool
    well_formed: bool


def records_of(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The records of a results document written by ``bs4-env eval`` (its ``"rollouts"``)."""
    rollouts = document.get("rollouts")
    if not isinstance(rollouts, list):
        raise CompareError(
            'not a results document: no "rollouts" list (write it with bs4-env eval)'
        )
    return rollouts


def _key(record: Record, where: str) -> RowKey:
    archetype, seed = record.get("archetype"), record.get("seed")
    if not isinstance(archetype, str) or isinstance(seed, bool) or not isinstance(seed, int):
        raise CompareError(
            f"{where}: a record needs a string archetype and an int seed, "
            f"got archetype={archetype!r}, seed={seed!r}"
        )
    return archetype, seed


def _reward(record: Record, where: str) -> float | None:
    """The reward, or ``None`` for an error row; inconsistent rows are refused."""
    reward = record.get("reward")
    if is_error(dict(record)):
        if reward is not None:
            raise CompareError(f"{where}: an error row with reward {reward!r} (expected null)")
        return None
    if reward is None:
        raise CompareError(f'{where}: reward is null but "error" is empty')
    if isinstance(reward, bool) or not isinstance(reward, int | float):
        raise CompareError(f"{where}: reward {reward!r} is not a number")
    return float(reward)


def uses_tools(record: Record) -> bool:
    """Whether the transcript has at least one assistant message with a tool call."""
    transcript = record.get("transcript")
    if not isinstance(transcript, list):
        raise CompareError(f"record {record.get('archetype')!r}: transcript is not a list")
    return any(
        isinstance(message, Mapping)
        and message.get("role") == "assistant"
        and bool(message.get("tool_calls"))
        for message in transcript
    )


def well_formed(record: Record) -> bool:
    """Whether the final answer is one valid answer object, by the grader's own parser."""
    final = record.get("final")
    if not isinstance(final, str):
        raise CompareError(f"record {record.get('archetype')!r}: final is {final!r}, not text")
    try:
        parse_final_answer(final)
    except AnswerFormatError:
        return False
    return True


def _rows(records: Sequence[Record], where: str) -> dict[RowKey, _Row]:
    if isinstance(records, Mapping) or not isinstance(records, Sequence):
        raise CompareError(f"{where}: expected a list of records, got {type(records).__name__}")
    if not records:
        raise CompareError(f"{where}: no records")
    rows: dict[RowKey, _Row] = {}
    for record in records:
        if not isinstance(record, Mapping):
            raise CompareError(f"{where}: a record is {type(record).__name__}, not an object")
        key = _key(record, where)
        if key in rows:
            raise CompareError(f"{where}: row {key} appears twice (one greedy record per row)")
        rows[key] = _Row(
            key, _reward(record, f"{where} {key}"), uses_tools(record), well_formed(record)
        )
    return rows


def _shown(keys: set[RowKey]) -> str:
    listed = ", ".join(f"{a}/{s}" for a, s in sorted(keys)[:MAX_KEYS_SHOWN])
    more = len(keys) - MAX_KEYS_SHOWN
    return listed + (f" and {more} more" if more > 0 else "")


def _check_same_rows(expected: set[RowKey], got: set[RowKey], where: str, reference: str) -> None:
    if got == expected:
        return
    parts = []
    if expected - got:
        parts.append(f"missing {_shown(expected - got)}")
    if got - expected:
        parts.append(f"extra {_shown(got - expected)}")
    raise CompareError(
        f"{where} has different rows from {reference} ({'; '.join(parts)}); "
        "stages must be evaluated on the same (archetype, seed) rows"
    )


@dataclass(frozen=True)
class _Spread:
    varied: dict[RowKey, bool]
    per_row: int
    errors: int
    rewards: dict[RowKey, list[float]]


def spread_rows(sample_lists: Sequence[Sequence[Record]], where: str = "samples") -> _Spread:
    """Per row, whether its sampled rewards are not all equal (errors count as 0).

    ``sample_lists`` is a list of record lists: one per sampling pass, or a single list
    with every sample. Each (archetype, seed) must have the same number (>= 2) of samples.
    """
    if isinstance(sample_lists, Mapping) or not isinstance(sample_lists, Sequence):
        raise CompareError(f"{where}: expected a list of record lists")
    rewards: dict[RowKey, list[float]] = defaultdict(list)
    errors = 0
    for index, records in enumerate(sample_lists):
        if isinstance(records, Mapping) or not isinstance(records, Sequence):
            raise CompareError(
                f"{where}[{index}]: expected a list of records, got {type(records).__name__} "
                "(pass a list of record lists, e.g. [records] for one document)"
            )
        for record in records:
            if not isinstance(record, Mapping):
                raise CompareError(f"{where}[{index}]: a record is not an object")
            key = _key(record, f"{where}[{index}]")
            reward = _reward(record, f"{where}[{index}] {key}")
            errors += reward is None
            rewards[key].append(0.0 if reward is None else reward)
    if not rewards:
        raise CompareError(f"{where}: no sampled records")
    counts = Counter(len(values) for values in rewards.values())
    if len(counts) > 1:
        raise CompareError(
            f"{where}: rows have different numbers of samples {dict(sorted(counts.items()))}; "
            "every row needs the same number"
        )
    (per_row,) = counts
    if per_row < 2:
        raise CompareError(f"{where}: each row needs at least 2 samples to measure spread")
    varied = {key: max(values) - min(values) > TIE_TOLERANCE for key, values in rewards.items()}
    return _Spread(varied, per_row, errors, dict(rewards))


def _block(rows: Sequence[_Row], spread: _Spread | None) -> dict[str, Any]:
    """The figures of one group of rows (a stage x subset, or one archetype of it)."""
    n = len(rows)
    rewards = [0.0 if row.reward is None else row.reward for row in rows]
    block: dict[str, Any] = {
        "n": n,
        "errors": sum(row.reward is None for row in rows),
        "reward": mean_interval(rewards, bounds=REWARD_BOUNDS).as_dict(),
        "pass": proportion(sum(r >= PASS_THRESHOLD for r in rewards), n).as_dict(),
        "tool_use": proportion(sum(row.tool_use for row in rows), n).as_dict(),
        "well_formed": proportion(sum(row.well_formed for row in rows), n).as_dict(),
        "spread": None,
    }
    if spread is not None:
        block["spread"] = proportion(sum(spread.varied[row.key] for row in rows), n).as_dict()
    return block


def _archetype_means(keys: Sequence[RowKey], values: Sequence[float]) -> dict[str, float]:
    """Each archetype's mean of ``values`` (aligned with ``keys``), in archetype order."""
    groups: dict[str, list[float]] = defaultdict(list)
    for key, value in zip(keys, values, strict=True):
        groups[key[0]].append(value)
    return {name: sum(v) / len(v) for name, v in sorted(groups.items())}


def _archetype_level(rows: Sequence[_Row]) -> dict[str, Any]:
    keys = [row.key for row in rows]
    means = _archetype_means(keys, [0.0 if r.reward is None else r.reward for r in rows])
    return {
        "n_archetypes": len(means),
        "reward": mean_interval(list(means.values()), bounds=REWARD_BOUNDS).as_dict(),
    }


def _all_runs_mean(row: _Row, spread: _Spread) -> float:
    """A row's mean reward over its greedy run and its samples (errors as 0)."""
    values = [0.0 if row.reward is None else row.reward, *spread.rewards[row.key]]
    return sum(values) / len(values)


def _zero(reward: float | None) -> float:
    return 0.0 if reward is None else reward


def default_pairs(stages: Sequence[str]) -> list[tuple[str, str]]:
    """Each stage against the next, then the first against the last (base->sft, sft->rl,
    base->rl for three stages)."""
    pairs = list(pairwise(stages))
    if len(stages) > 2:
        pairs.append((stages[0], stages[-1]))
    return pairs


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, DIGITS)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_rounded(item) for item in value]
    return value


def _rounded_dict(value: dict[str, Any]) -> dict[str, Any]:
    return {key: _rounded(item) for key, item in value.items()}


def compare_stages(
    greedy: Mapping[str, Mapping[str, Sequence[Record]]],
    samples: Mapping[str, Mapping[str, Sequence[Sequence[Record]]]] | None = None,
    pairs: Sequence[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The JSON-ready comparison of stages (in ``greedy``'s order) on each subset.

    ``greedy[stage][subset]`` are the temperature-0 records; ``samples[stage][subset]``
    (optional, same stages and subsets) the sampled record lists, for ``spread``. ``pairs``
    defaults to each stage against the next and the first against the last.
    """
    stages = list(greedy)
    if not stages:
        raise CompareError("no stages to compare")
    subsets = list(greedy[stages[0]])
    if not subsets:
        raise CompareError(f"stage {stages[0]!r} has no subsets")
    for stage in stages:
        if set(greedy[stage]) != set(subsets):
            raise CompareError(
                f"stage {stage!r} has subsets {sorted(greedy[stage])}, "
                f"stage {stages[0]!r} has {sorted(subsets)}; every stage needs the same subsets"
            )
    if samples is not None:
        for stage in stages:
            if set(samples.get(stage, {})) != set(subsets):
                raise CompareError(
                    f"samples for stage {stage!r} cover subsets {sorted(samples.get(stage, {}))}"
                    f", expected {sorted(subsets)}"
                )
        if set(samples) - set(stages):
            raise CompareError(f"samples for unknown stages {sorted(set(samples) - set(stages))}")
    chosen = default_pairs(stages) if pairs is None else list(pairs)
    for before, after in chosen:
        if before not in greedy or after not in greedy or before == after:
            raise CompareError(f"cannot pair {before!r} -> {after!r}; stages are {stages}")

    rows = {
        stage: {subset: _rows(greedy[stage][subset], f"{stage}/{subset}") for subset in subsets}
        for stage in stages
    }
    for subset in subsets:
        reference = set(rows[stages[0]][subset])
        for stage in stages[1:]:
            _check_same_rows(
                reference, set(rows[stage][subset]), f"{stage}/{subset}", f"{stages[0]}/{subset}"
            )

    results: dict[str, Any] = {}
    spreads: dict[tuple[str, str], _Spread] = {}
    for stage in stages:
        results[stage] = {}
        for subset in subsets:
            group = rows[stage][subset]
            spread = None
            if samples is not None:
                where = f"samples {stage}/{subset}"
                spread = spread_rows(samples[stage][subset], where)
                _check_same_rows(set(group), set(spread.varied), where, f"{stage}/{subset}")
                spreads[stage, subset] = spread
            by_archetype: dict[str, list[_Row]] = defaultdict(list)
            for key in sorted(group):
                by_archetype[key[0]].append(group[key])
            results[stage][subset] = {
                "overall": _block(list(group.values()), spread),
                "archetype_level": _archetype_level(list(group.values())),
                "samples_per_row": spread.per_row if spread else None,
                "sample_errors": spread.errors if spread else None,
                "by_archetype": {
                    name: _block(items, spread) for name, items in by_archetype.items()
                },
            }

    paired = []
    for subset in subsets:
        for before, after in chosen:
            keys = sorted(rows[before][subset])
            pair = {"subset": subset, "before": before, "after": after}
            # Per run kind, (before, after) values per row; None marks an error row (reward 0).
            values: dict[str, list[list[float | None]]] = {
                "greedy": [[rows[s][subset][key].reward for key in keys] for s in (before, after)]
            }
            if samples is not None:
                values["greedy+samples"] = [
                    [_all_runs_mean(rows[s][subset][key], spreads[s, subset]) for key in keys]
                    for s in (before, after)
                ]
            for runs, (first, second) in values.items():
                # Archetypes first: they are the primary units (rows of one archetype correlate).
                archetype_means = [
                    list(_archetype_means(keys, [_zero(v) for v in side]).values())
                    for side in (first, second)
                ]
                test = paired_test(archetype_means[0], archetype_means[1], bounds=REWARD_BOUNDS)
                paired.append({**pair, "runs": runs, "unit": "archetype", **test.as_dict()})
                test = paired_test(first, second, bounds=REWARD_BOUNDS)
                paired.append({**pair, "runs": runs, "unit": "row", **test.as_dict()})

    return _rounded_dict(
        {
            "confidence": CONFIDENCE,
            "pass_threshold": PASS_THRESHOLD,
            "reward_bounds": list(REWARD_BOUNDS),
            "methods": dict(METHODS),
            "stages": stages,
            "subsets": subsets,
            "results": results,
            "paired": paired,
        }
    )
