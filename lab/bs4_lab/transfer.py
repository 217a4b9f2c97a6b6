"""Continuous transfer measures on held-out archetypes, where the reward is 0 at every stage.

A pass/fail reward of 0 everywhere cannot show a model getting closer. Three graded measures
can, each per stage and compared between stages with an interval:

* ``nll``: the mean negative log-likelihood per assistant token of verified episodes of the
  held-out archetypes (``sft-data`` episodes of their train split, each replayed through the
  engine to the best reward), under the base model and under each adapter, paired per
  episode. Lower is better: the model finds correct behaviour on unseen archetypes likelier.
* ``first_program_ok``: of the eval rows where the model ran code, the share whose first
  ``run_python`` call ran with exit status 0.
* ``answered``: of the solvable eval rows, the share answered with ``"status": "ok"`` in a
  well-formed reply (not abstained, not malformed).

Intervals: the NLL difference is a Student t-interval over episodes with a sign-flip
permutation p; the shares are Wilson intervals, their differences paired per row. Episodes
and rows of one archetype correlate, and four held-out archetypes are too few for an
archetype-level test (its smallest two-sided p is 0.125), so these intervals are row-level
and say so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bs4_env.grading.answer import AnswerFormatError, parse_final_answer
from bs4_lab.stats import mean_interval, paired_test, proportion

EXIT_OK = "exit status: 0"


def first_program_ok(record: Mapping[str, Any]) -> bool | None:
    """Whether the first ``run_python`` call ran without error (None: no code was run)."""
    calls: dict[str, str] = {}
    for message in record.get("transcript") or []:
        for call in message.get("tool_calls") or []:
            calls[call["id"]] = call["function"]["name"]
        if message.get("role") == "tool" and calls.get(message.get("tool_call_id", "")) == (
            "run_python"
        ):
            content = str(message.get("content") or "")
            if not content.startswith("exit status:"):
                continue  # a refused call (bad arguments) ran nothing
            return content.startswith(EXIT_OK)
    return None


def answered(record: Mapping[str, Any]) -> bool:
    """A well-formed ``"status": "ok"`` final reply."""
    final = record.get("final")
    if not isinstance(final, str):
        return False
    try:
        parsed = parse_final_answer(final)
    except AnswerFormatError:
        return False
    return parsed.status == "ok"


def _share(flags: Sequence[bool]) -> dict[str, Any] | None:
    return proportion(sum(flags), len(flags)).as_dict() if flags else None


def row_measures(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The two row measures of one stage on one subset."""
    ran = [ok for r in records if (ok := first_program_ok(r)) is not None]
    solvable = [answered(r) for r in records if r.get("solvable", True)]
    return {"first_program_ok": _share(ran), "answered": _share(solvable)}


def paired_rows(
    before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """Paired differences of the row measures (rows matched by archetype and seed)."""
    index = {(r["archetype"], r["seed"]): r for r in before}
    keys = [(r["archetype"], r["seed"]) for r in after]
    if set(keys) != set(index):
        raise ValueError("the stages were evaluated on different rows")
    after_by = {(r["archetype"], r["seed"]): r for r in after}
    solvable = [k for k in keys if index[k].get("solvable", True)]
    out: dict[str, Any] = {
        "answered": paired_test(
            [float(answered(index[k])) for k in solvable],
            [float(answered(after_by[k])) for k in solvable],
        ).as_dict()
        if solvable
        else None
    }
    # First programs: rows where both stages ran code (the measure is undefined otherwise).
    both = [
        (a, b)
        for k in keys
        if (a := first_program_ok(index[k])) is not None
        and (b := first_program_ok(after_by[k])) is not None
    ]
    out["first_program_ok"] = (
        paired_test([float(a) for a, _ in both], [float(b) for _, b in both]).as_dict()
        if both
        else None
    )
    return out


def nll_by_episode(trainer: Any, sequences: Sequence[Any], prefix_len: int) -> list[float]:
    """Mean NLL per trained token of each sequence under the trainer's current weights."""
    return [trainer.sequence_nll(sequence, prefix_len) for sequence in sequences]


def compare_nll(before: Sequence[float], after: Sequence[float]) -> dict[str, Any]:
    """``after - before`` per episode (negative: the later model finds the episodes likelier)."""
    test = paired_test(list(before), list(after))
    # The test's own ``mean_before``/``mean_after`` are bare means; the intervals replace them.
    return {
        **test.as_dict(),
        "mean_before": mean_interval(list(before)).as_dict(),
        "mean_after": mean_interval(list(after)).as_dict(),
    }


def load_records(path: Path) -> list[dict[str, Any]]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    records: list[dict[str, Any]] = document["rollouts"]
    return records
