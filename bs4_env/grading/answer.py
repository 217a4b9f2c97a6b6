"""Parse the model's final message into an ``ok`` answer or a ``limit`` abstention.

The rule is ``FORMAT_RULE``, word for word the sentence the system prompt and docs/episode.md
give: exactly one JSON object with a ``"status"`` key, alone, in a fence, or with prose
around it; repeats of the very same object are fine, two different ones are ambiguous. The
caps keep grading linear in the message and stop ``json`` before it could recurse or build
huge integers. Every failure is an ``AnswerFormatError`` whose message says what was wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal, NoReturn

from bs4_env.grading.json_scan import NestingError, top_level_spans
from bs4_env.tasks.model import JSONValue

MAX_FINAL_CHARS = 16_000
"""Longest final message graded; longer is a format error (and is not read for secrets)."""
MAX_JSON_DEPTH = 32
"""Deepest bracket nesting in the final message (the answer object itself is one level)."""
MAX_INT_DIGITS = 100
"""Longest integer literal; no answer needs more, and ``int()`` of huge literals is slow."""

FORMAT_RULE = (
    'Final reply: exactly one JSON object with a "status" key, alone or in a ```json fence '
    "(text around it is allowed). Two different such objects are a format error, and so is "
    f"a reply over {MAX_FINAL_CHARS:,} characters or JSON nested deeper than {MAX_JSON_DEPTH} "
    "levels."
)


class AnswerFormatError(ValueError):
    """The final message is not one valid answer object; the message says why."""


@dataclass(frozen=True)
class FinalAnswer:
    status: Literal["ok", "limit"]
    answer: JSONValue = None
    reason: str = ""
    evidence: str = ""


class _Rejected(ValueError):
    """JSON that decodes but is ambiguous or not JSON proper (NaN, duplicate keys, ...)."""


def _reject_constant(name: str) -> NoReturn:
    raise _Rejected(f"{name} is not a JSON value")


def _bounded_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INT_DIGITS:
        raise _Rejected(f"an integer with more than {MAX_INT_DIGITS} digits")
    return int(literal)


def _unique_keys(pairs: list[tuple[str, JSONValue]]) -> dict[str, JSONValue]:
    result: dict[str, JSONValue] = {}
    for key, value in pairs:
        if key in result:
            raise _Rejected(f"duplicate key {key!r} in one object")
        result[key] = value
    return result


def _decode(span: str) -> JSONValue:
    return json.loads(
        span,
        object_pairs_hook=_unique_keys,
        parse_constant=_reject_constant,
        parse_int=_bounded_int,
    )


def _might_hold_status(span: str) -> bool:
    # A "status" key is spelled out, or has \uXXXX escapes (its letters need no others).
    return span.startswith("{") and ('"status"' in span or "\\u" in span)


def status_objects(text: str) -> list[dict[str, JSONValue]]:
    """The distinct top-level JSON objects with a ``"status"`` key in ``text``.

    Spans that are not JSON (prose, code) are skipped; JSON made ambiguous by duplicate
    keys, NaN/Infinity or huge integers is an ``AnswerFormatError``. Each distinct span is
    decoded once, and the search stops at the second distinct object (already ambiguous).
    """
    if len(text) > MAX_FINAL_CHARS:
        raise AnswerFormatError(
            f"the final message has {len(text):,} characters; the limit is {MAX_FINAL_CHARS:,}"
        )
    if not _might_hold_status("{" + text):
        return []  # no "status" spelled out or escaped anywhere: nothing to scan for
    try:
        spans = top_level_spans(text, MAX_JSON_DEPTH)
    except NestingError as error:
        raise AnswerFormatError(str(error)) from None
    seen: set[str] = set()
    distinct: dict[str, dict[str, JSONValue]] = {}
    for start, end in spans:
        span = text[start:end]
        if span in seen or not _might_hold_status(span):
            continue
        seen.add(span)
        try:
            value = _decode(span)
        except _Rejected as error:
            if '"status"' in span:
                raise AnswerFormatError(f"not valid JSON: {error}") from None
            continue  # ambiguous JSON that is no answer (e.g. in quoted code)
        except ValueError:
            continue  # prose or code in brackets, not a JSON object
        if isinstance(value, dict) and "status" in value:
            distinct.setdefault(json.dumps(value, sort_keys=True), value)
            if len(distinct) > 1:
                break
    return list(distinct.values())


def _the_status_object(text: str) -> dict[str, JSONValue]:
    found = status_objects(text)
    if not found:
        raise AnswerFormatError('no JSON object with a "status" key found in the final message')
    if len(found) > 1:
        raise AnswerFormatError(
            'two different JSON objects with a "status" key; reply with exactly one'
        )
    return found[0]


def parse_final_answer(text: str) -> FinalAnswer:
    """The one status object of ``text`` (see ``FORMAT_RULE``); raises ``AnswerFormatError``."""
    obj = _the_status_object(text)
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
    shown = repr(status)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise AnswerFormatError(f'"status" must be "ok" or "limit", got {shown}')
