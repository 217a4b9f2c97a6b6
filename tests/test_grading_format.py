"""The reply-format rule, its caps, and a grader that never raises (issue 7 A)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bs4_env.episode.prompt import SYSTEM_PROMPT
from bs4_env.grading.answer import (
    FORMAT_RULE,
    MAX_FINAL_CHARS,
    MAX_JSON_DEPTH,
    AnswerFormatError,
    parse_final_answer,
)
from bs4_env.grading.normalize import answers_match
from bs4_env.grading.rubric import ToolUsage, grade
from bs4_env.tasks.model import Normalization, Task
from bs4_env.tasks.registry import Registry, build_task

RAN = ToolUsage(tool_calls=1, soup_runs=1)
EPISODE_DOC = Path(__file__).resolve().parents[1] / "docs" / "episode.md"


def _ok(answer: object) -> str:
    return json.dumps({"status": "ok", "answer": answer})


@pytest.fixture(scope="module")
def solvable(registry: Registry) -> Task:
    return build_task("text_by_id", 11, "eval", registry)


def test_deep_nesting_is_a_format_error(solvable: Task) -> None:
    """~1,000 levels used to raise RecursionError; past the cap it is a clear format error."""
    right = _ok(solvable.truth)
    for text in (
        "{" * 1000 + right,
        '{"status": "ok", "answer": ' + "[" * 1000 + "]" * 1000 + "}",
        '{"status": "ok", "answer": ' + '{"a":' * 1000 + "1" + "}" * 1000 + "}",
    ):
        score = grade(solvable, text, RAN)
        assert score.reward == 0.0 and score.components["format_ok"] == 0.0
        assert f"deeper than {MAX_JSON_DEPTH}" in score.explanation, score.explanation


def test_nesting_up_to_the_cap_parses() -> None:
    depth = MAX_JSON_DEPTH - 1  # the status object itself is one level
    text = '{"status": "ok", "answer": ' + "[" * depth + "]" * depth + "}"
    assert parse_final_answer(text).status == "ok"


def test_huge_integers_are_format_errors_not_exceptions(solvable: Task) -> None:
    """A 5,000-digit literal raised ValueError; a 400-digit one OverflowError in compare."""
    for digits in (5000, 400):
        score = grade(solvable, '{"status": "ok", "answer": ' + "9" * digits + "}", RAN)
        assert score.reward == 0.0, digits
    assert not answers_match(10**400, 1.0, Normalization())
    assert answers_match(2**60, 2**60, Normalization())


def test_message_over_the_cap_is_a_format_error(solvable: Task) -> None:
    text = "x" * MAX_FINAL_CHARS + _ok(solvable.truth)
    score = grade(solvable, text, RAN)
    assert score.reward == 0.0 and score.components["format_ok"] == 0.0
    assert f"{MAX_FINAL_CHARS:,}" in score.explanation, score.explanation


def test_two_different_status_objects_are_ambiguous(solvable: Task) -> None:
    right, wrong = _ok(solvable.truth), _ok("something else")
    for text in (f"{wrong}\n{right}", f"{right} or maybe {wrong}", f"```json\n{right}\n```{wrong}"):
        score = grade(solvable, text, RAN)
        assert score.reward == 0.0 and "different" in score.explanation, text
    limit = json.dumps({"status": "limit", "limit": {"reason": "js_rendered", "evidence": "x"}})
    assert grade(solvable, f"{limit}\n{right}", RAN).reward == 0.0


def test_repeating_the_same_object_is_not_ambiguous(solvable: Task) -> None:
    right = _ok(solvable.truth)
    assert grade(solvable, f"```json\n{right}\n```\nAgain: {right}", RAN).reward == 1.0


@pytest.mark.parametrize(
    "template",
    [
        "{answer}",
        "```json\n{answer}\n```",
        "```\n{answer}\n```",
        "The value is below.\n\n```json\n{answer}\n```\nDone.",
        "I ran soup.find('p', {{'class': 'x'}}) and got it: {answer} -- thanks",
        "{{ unbalanced prose brace, then {answer}",
        'Tried {{"a": 1}} first; final: {answer}',
    ],
)
def test_the_rule_accepts_one_object_with_prose_or_fence(solvable: Task, template: str) -> None:
    text = template.format(answer=_ok(solvable.truth))
    assert grade(solvable, text, RAN).reward == 1.0, text


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"status": "ok", "answer": 1, "answer": 2}', "duplicate key"),
        ('{"status": "ok", "status": "limit", "answer": 1}', "duplicate key"),
        ('{"status": "ok", "answer": NaN}', "NaN"),
        ('{"status": "ok", "answer": -Infinity}', "Infinity"),
        ('{"status": "оk", "answer": 1}', '"status" must be'),
        ('{"status": "ok", "answer": 1', 'no JSON object with a "status" key'),
        ('{"final": {"status": "ok", "answer": 1}}', 'no JSON object with a "status" key'),
    ],
)
def test_format_errors_say_why(text: str, why: str) -> None:
    with pytest.raises(AnswerFormatError, match=re.escape(why)):
        parse_final_answer(text)


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def test_docs_prompt_and_parser_state_the_same_rule() -> None:
    assert _collapsed(FORMAT_RULE) in _collapsed(SYSTEM_PROMPT)
    assert _collapsed(FORMAT_RULE) in _collapsed(EPISODE_DOC.read_text(encoding="utf-8"))
    assert f"{MAX_FINAL_CHARS:,}" in FORMAT_RULE and str(MAX_JSON_DEPTH) in FORMAT_RULE
