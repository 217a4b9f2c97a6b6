"""Read and check a ``bs4-env eval`` results JSON before the HTML report renders it.

Every problem (no such file, not UTF-8, not JSON, a field of the wrong type) becomes a
``ReportInputError`` whose message names the file and the offending path in it, e.g.
``r.json: rollouts[3].reward: expected a number or null, got 'high'``; the CLI prints it
and exits 2. Only what the report reads is checked; extra keys are allowed (newer files), and
absent token counts are filled in as 0.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

# The fields of a rollout record (bs4_env.evaluation.report) that the report shows.
_TEXT_FIELDS = ("archetype", "difficulty", "category")
_OPTIONAL_TEXT_FIELDS = ("explanation", "final", "split")


class ReportInputError(ValueError):
    """The results file cannot be reported on; the message says why."""


def _kind(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_message(where: str, message: object) -> None:
    if not isinstance(message, dict):
        raise ReportInputError(f"{where}: expected a message object, got {_kind(message)}")
    if not isinstance(message.get("role"), str):
        raise ReportInputError(f"{where}.role: expected a string, got {_kind(message.get('role'))}")
    calls = message.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        raise ReportInputError(f"{where}.tool_calls: expected a list, got {_kind(calls)}")


def _check_rollout(where: str, record: object) -> None:
    if not isinstance(record, dict):
        raise ReportInputError(f"{where}: expected a rollout object, got {_kind(record)}")
    for key in _TEXT_FIELDS:
        if not isinstance(record.get(key), str):
            raise ReportInputError(
                f"{where}.{key}: expected a string, got {_kind(record.get(key))}"
            )
    for key in _OPTIONAL_TEXT_FIELDS:
        if record.get(key) is not None and not isinstance(record[key], str):
            raise ReportInputError(f"{where}.{key}: expected a string, got {_kind(record[key])}")
    seed = record.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ReportInputError(f"{where}.seed: expected an integer, got {_kind(seed)}")
    error = record.get("error")
    if error is not None and not isinstance(error, str):
        raise ReportInputError(f"{where}.error: expected a string or null, got {_kind(error)}")
    reward = record.get("reward")
    number = isinstance(reward, int | float) and not isinstance(reward, bool)
    if reward is None and not error:
        raise ReportInputError(f"{where}.reward: null, but the rollout has no error")
    if reward is not None and not (number and math.isfinite(reward)):
        raise ReportInputError(f"{where}.reward: expected a number or null, got {_kind(reward)}")
    for key in ("prompt_tokens", "completion_tokens"):
        count = record.setdefault(key, 0)  # absent in hand-made files: counted as 0
        if not isinstance(count, int) or isinstance(count, bool):
            raise ReportInputError(f"{where}.{key}: expected an integer, got {_kind(count)}")
    components = record.get("components", {})
    if not isinstance(components, dict):
        raise ReportInputError(f"{where}.components: expected an object, got {_kind(components)}")
    transcript = record.get("transcript", [])
    if not isinstance(transcript, list):
        raise ReportInputError(f"{where}.transcript: expected a list, got {_kind(transcript)}")
    for index, message in enumerate(transcript):
        _check_message(f"{where}.transcript[{index}]", message)


def check_results(results: object) -> dict[str, Any]:
    """``results`` if it has the shape of an eval results document; raises otherwise."""
    if not isinstance(results, dict):
        raise ReportInputError(
            f"expected a JSON object (a `bs4-env eval` results file), got {type(results).__name__}"
        )
    rollouts = results.get("rollouts")
    if not isinstance(rollouts, list):
        raise ReportInputError(
            "no 'rollouts' list: this is not a `bs4-env eval` results file "
            "(a .partial.jsonl journal is not one either)"
        )
    for index, record in enumerate(rollouts):
        _check_rollout(f"rollouts[{index}]", record)
    return results


def load_results(path: Path) -> dict[str, Any]:
    """The checked results document at ``path``."""
    if not path.exists():
        raise ReportInputError(f"{path}: no such file")
    if not path.is_file():
        raise ReportInputError(f"{path}: not a file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ReportInputError(
            f"{path}: not UTF-8 text ({error.reason} at byte {error.start})"
        ) from None
    except OSError as error:
        raise ReportInputError(f"{path}: cannot be read ({error.strerror})") from error
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReportInputError(
            f"{path}: not JSON ({error.msg} at line {error.lineno} column {error.colno})"
        ) from None
    try:
        return check_results(document)
    except ReportInputError as error:
        raise ReportInputError(f"{path}: {error}") from None
