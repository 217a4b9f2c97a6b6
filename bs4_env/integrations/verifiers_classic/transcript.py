"""Reading classic verifiers messages and recording the grade (no verifiers import).

verifiers' classic messages are pydantic objects in a live rollout and dicts once saved; the
helpers read either. The grade goes into the row's ``info`` under ``bs4`` with the same fields
as the v1 taskset's ``trace.info["bs4"]``, and every score component becomes a metric.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bs4_env.episode.engine import TOOL_SPECS, Episode
from bs4_env.grading.rubric import Score

INFO_KEY = "bs4"
COMPONENTS = (
    "correct",
    "abstained",
    "reason_ok",
    "evidence_ok",
    "safety_violation",
    "used_bs4",
    "efficiency",
    "tool_calls",
    "sandbox_errors",
    "timeouts",
    "format_ok",
    "run_s",
    "queue_wait_s",
)
"""The score components, each a metric (as on the v1 taskset; a test keeps them in step)."""
METRICS = (*COMPONENTS, "bad_arguments")


def well_formed_arguments(name: str, raw: str) -> dict[str, str] | None:
    """The arguments when they are exactly ``{<param>: <string>}`` for a known tool, else None
    (then the engine's repair decides)."""
    spec = TOOL_SPECS.get(name)
    if spec is None:
        return None
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError:
        return None
    if isinstance(parsed, dict) and list(parsed) == [spec.param]:
        value = parsed[spec.param]
        if isinstance(value, str):
            return {spec.param: value}
    return None


def field_of(message: Any, name: str) -> Any:
    """A message field, whether the message is a dict or a pydantic object."""
    return message.get(name) if isinstance(message, dict) else getattr(message, name, None)


def text_of(content: Any) -> str:
    """Message content as plain text (a string, or a list of text parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(str(field_of(part, "text") or "") for part in content)


def plain_messages(messages: list[Any]) -> list[dict[str, str]]:
    """Role and text of each message (the shape ``initial_messages`` builds)."""
    return [
        {"role": str(field_of(m, "role")), "content": text_of(field_of(m, "content"))}
        for m in messages
    ]


def final_text(completion: list[Any] | None) -> str:
    """The last reply if it is an assistant message without tool calls (the answer), else ''
    (the same rule as ``run_rollout`` and the v1 taskset)."""
    if not completion:
        return ""
    last = completion[-1]
    if field_of(last, "role") != "assistant" or field_of(last, "tool_calls"):
        return ""
    return text_of(field_of(last, "content"))


def with_history_arguments(messages: list[Any], sent: Mapping[str, str]) -> list[Any]:
    """``messages`` with each tool call in ``sent`` (by call id) carrying the arguments to send
    back instead of the model's (``bs4_env.episode.history``). Messages are copied, never
    changed in place: the rollout's trajectory keeps the raw text."""
    out = []
    for message in messages:
        calls = field_of(message, "tool_calls") or []
        if not any(field_of(call, "id") in sent for call in calls):
            out.append(message)
            continue
        if not hasattr(message, "model_copy"):
            raise TypeError(f"expected a verifiers message object, got {type(message).__name__}")
        rewritten = [
            call.model_copy(update={"arguments": sent[call.id]}) if call.id in sent else call
            for call in calls
        ]
        out.append(message.model_copy(update={"tool_calls": rewritten}))
    return out


def grade_record(score: Score, episode: Episode) -> dict[str, Any]:
    """What ``info["bs4"]`` keeps: the score, its explanation and the episode counters."""
    return {
        "reward": score.reward,
        "components": dict(score.components),
        "explanation": score.explanation,
        "episode": episode.state.as_dict(),
    }


def metric_value(record: dict[str, Any], name: str) -> float:
    """One metric from a grade record (``bad_arguments`` comes from the episode counters)."""
    if name == "bad_arguments":
        return float(record["episode"]["bad_arguments"])
    return float(record["components"].get(name, 0.0))
