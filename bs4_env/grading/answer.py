"""Parse the model's final message into an ``ok`` answer or a ``limit`` abstention."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

from bs4_env.tasks.model import JSONValue

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n(.*?)\n?```", re.DOTALL)


class AnswerFormatError(ValueError):
    """The final message is not one valid answer object; the message says why."""


@dataclass(frozen=True)
class FinalAnswer:
    status: Literal["ok", "limit"]
    answer: JSONValue = None
    reason: str = ""
    evidence: str = ""


def _candidate_objects(text: str) -> list[dict[str, JSONValue]]:
    """Every top-level JSON object in the text, from fenced blocks first, then raw."""
    found: list[dict[str, JSONValue]] = []
    for block in _FENCE.findall(text):
        try:
            value = json.loads(block)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            found.append(value)
    if found:
        return found
    decoder = json.JSONDecoder()
    index = 0
    while (start := text.find("{", index)) != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            index = start + 1
            continue
        if isinstance(value, dict):
            found.append(value)
        index = end
    return found


def parse_final_answer(text: str) -> FinalAnswer:
    """The last JSON object with a ``status`` key in ``text``; raises ``AnswerFormatError``."""
    candidates = [obj for obj in _candidate_objects(text) if "status" in obj]
    if not candidates:
        raise AnswerFormatError('no JSON object with a "status" key found in the final message')
    obj = candidates[-1]
    status = obj["status"]
    if status == "ok":
        if "answer" not in obj:
            raise AnswerFormatError('status "ok" needs an "answer" field')
        return FinalAnswer(status="ok", answer=obj["answer"])
    if status == "limit":
        limit = obj.get("limit")
        if not isinstance(limit, dict):
            raise AnswerFormatError(
                'status "limit" needs a "limit" object with reason and evidence'
            )
        reason, evidence = limit.get("reason"), limit.get("evidence")
        if not isinstance(reason, str) or not isinstance(evidence, str):
            raise AnswerFormatError('"limit" needs string fields "reason" and "evidence"')
        return FinalAnswer(status="limit", reason=reason.strip(), evidence=evidence)
    raise AnswerFormatError(f'"status" must be "ok" or "limit", got {status!r}')
