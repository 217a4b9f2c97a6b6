"""The system prompt teaches the final-answer format (issue 10, learnability)."""

from __future__ import annotations

import json

from bs4_env.episode import prompt
from bs4_env.episode.prompt import SYSTEM_PROMPT
from bs4_env.grading.answer import parse_final_answer
from bs4_env.grading.evidence import MAX_EVIDENCE_CHARS
from bs4_env.tasks.model import LIMIT_REASON_TEXT, LimitReason

# Small models (1.5B) read the whole prompt on every turn: keep it short.
MAX_PROMPT_CHARS = 3_200


def test_one_worked_example_of_each_status_parses() -> None:
    examples = {"ok": prompt.EXAMPLE_OK, "limit": prompt.EXAMPLE_LIMIT}
    for status, example in examples.items():
        assert example in SYSTEM_PROMPT
        parsed = parse_final_answer(example)
        assert parsed.status == status
        assert json.loads(example)["status"] == status, "each example is a whole reply"
    assert LimitReason(parse_final_answer(prompt.EXAMPLE_LIMIT).reason)


def test_every_reason_is_listed_with_its_one_description() -> None:
    assert set(LIMIT_REASON_TEXT) == set(LimitReason), "a reason without a description"
    for reason in LimitReason:
        assert f'"{reason.value}": {LIMIT_REASON_TEXT[reason]}' in SYSTEM_PROMPT, reason


def test_prompt_states_the_caps_and_stays_short() -> None:
    assert f"{MAX_EVIDENCE_CHARS} characters" in SYSTEM_PROMPT
    assert len(SYSTEM_PROMPT) <= MAX_PROMPT_CHARS, len(SYSTEM_PROMPT)


def test_prompt_names_the_one_element_evidence_rule() -> None:
    assert "one element" in SYSTEM_PROMPT


def test_prompt_says_to_call_run_python_first() -> None:
    """The tool gate (no BeautifulSoup run, no reward) is taught, not only enforced."""
    assert "Call run_python first" in SYSTEM_PROMPT
    assert "scores 0" in SYSTEM_PROMPT.split("Call run_python first", 1)[1].split("\n\n", 1)[0]
