"""Row measures of behaviour, beside the reward, for eval documents of generated or real pages.

Each is a share with its Wilson interval (``None`` where no row qualifies):

* ``tool_use``: rows with at least one assistant tool call;
* ``first_program_ok``: of the rows that ran code, those whose first ``run_python`` call exited 0;
* ``answered``: of the solvable rows, those answered with a well-formed ``"status": "ok"``;
* ``abstained_solvable``: of the solvable rows, those that abstained (``"status": "limit"``):
  spurious abstentions, since the page holds the answer (on ``real``, an extractable page);
* ``no_final``: rows that ended without a final reply (the last message a tool reply);
* ``budget_heeded``: of the rows where a budget refusal arrived ("tool-call budget ... used
  up; reply with your final JSON answer now") and the model had a turn after it, those whose
  next reply was a final reply rather than another tool call: the behaviour the recovery warm
  start's budget episodes teach.

``warm_start_rate`` is the share the recovery warm start is registered to halve: rows with no
final answer plus solvable rows abstained on, over all rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bs4_env.episode.engine import OUTPUT_BUDGET_SPENT, TOOL_BUDGET_SPENT
from bs4_env.grading.answer import AnswerFormatError, parse_final_answer
from bs4_lab.compare import REWARD_BOUNDS, uses_tools
from bs4_lab.stats import mean_interval, paired_test, proportion
from bs4_lab.transfer import answered, first_program_ok

Record = Mapping[str, Any]
BUDGET_REFUSALS = (TOOL_BUDGET_SPENT.split("{", 1)[0], OUTPUT_BUDGET_SPENT)


def abstained(record: Record) -> bool:
    """A well-formed final reply with ``"status": "limit"``."""
    final = record.get("final")
    if not isinstance(final, str):
        return False
    try:
        return parse_final_answer(final).status == "limit"
    except AnswerFormatError:
        return False


def no_final(record: Record) -> bool:
    """The episode ended without a final reply (the engine stopped it after a tool call)."""
    return not str(record.get("final") or "").strip()


def _first_refusal(transcript: Sequence[Mapping[str, Any]]) -> int | None:
    for index, message in enumerate(transcript):
        if message.get("role") == "tool" and str(message.get("content") or "").startswith(
            BUDGET_REFUSALS
        ):
            return index
    return None


def met_budget_refusal(record: Record) -> bool:
    """Whether a budget refusal arrived in the episode."""
    return _first_refusal(record.get("transcript") or []) is not None


def budget_heeded(record: Record) -> bool | None:
    """Whether the reply after the first budget refusal was a final reply (None: no refusal
    arrived, or the episode ended before the model replied to it)."""
    transcript = record.get("transcript") or []
    index = _first_refusal(transcript)
    if index is None:
        return None
    for later in transcript[index + 1 :]:
        if later.get("role") == "assistant":
            return not later.get("tool_calls")
    return None


def _share(flags: Sequence[bool]) -> dict[str, Any] | None:
    return proportion(sum(flags), len(flags)).as_dict() if flags else None


def _reward(record: Record) -> float:
    reward = record.get("reward")
    return 0.0 if reward is None else float(reward)


def behaviour(records: Sequence[Record]) -> dict[str, Any]:
    """The reward and the row measures above of one model on one set of rows."""
    if not records:
        raise ValueError("no records to measure")
    solvable = [r for r in records if r.get("solvable", True)]
    ran = [ok for r in records if (ok := first_program_ok(r)) is not None]
    refused = [heeded for r in records if (heeded := budget_heeded(r)) is not None]
    return {
        "n": len(records),
        "reward": mean_interval([_reward(r) for r in records], bounds=REWARD_BOUNDS).as_dict(),
        "tool_use": _share([uses_tools(r) for r in records]),
        "first_program_ok": _share(ran),
        "answered": _share([answered(r) for r in solvable]),
        "abstained_solvable": _share([abstained(r) for r in solvable]),
        "no_final": _share([no_final(r) for r in records]),
        "budget_heeded": _share(refused),
        "warm_start_rate": warm_start_rate(records),
    }


def warm_start_rate(records: Sequence[Record]) -> dict[str, Any]:
    """Rows without a final answer plus solvable rows abstained on, over all rows."""
    flags = [no_final(r) or (bool(r.get("solvable", True)) and abstained(r)) for r in records]
    return proportion(sum(flags), len(flags)).as_dict()


def paired_behaviour(before: Sequence[Record], after: Sequence[Record]) -> dict[str, Any]:
    """``after - before`` on the same rows (rows as units): reward and answered share."""
    first = {(r["archetype"], r["seed"]): r for r in before}
    second = {(r["archetype"], r["seed"]): r for r in after}
    if set(first) != set(second):
        raise ValueError("the two models were evaluated on different rows")
    keys = sorted(first)
    solvable = [k for k in keys if first[k].get("solvable", True)]
    return {
        "reward": paired_test(
            [_reward(first[k]) for k in keys], [_reward(second[k]) for k in keys]
        ).as_dict(),
        "answered": paired_test(
            [float(answered(first[k])) for k in solvable],
            [float(answered(second[k])) for k in solvable],
        ).as_dict()
        if solvable
        else None,
    }
