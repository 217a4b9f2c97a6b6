"""Failure replies from run_python say what to do next, and stdout stays exact."""

from __future__ import annotations

import pytest

from bs4_env.episode.tool_text import (
    HINT_EMPTY,
    HINT_ERROR,
    HINT_TIMEOUT,
    HINT_TRUNCATED,
    format_exec_result,
    stdout_of,
)
from bs4_env.sandbox.base import ExecResult, truncation_marker

TRACEBACK = 'Traceback (most recent call last):\n  File "<code>", line 1\nNameError: x'


def _result(**fields: object) -> ExecResult:
    base: dict[str, object] = {
        "stdout": "",
        "stderr": "",
        "exit_code": 0,
        "timed_out": False,
        "duration_s": 0.01,
    }
    return ExecResult(**{**base, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("result", "hint"),
    [
        (_result(stderr=TRACEBACK, exit_code=1), HINT_ERROR),
        (_result(stdout="partial\n", stderr=TRACEBACK, exit_code=1), HINT_ERROR),
        (_result(stdout="partial\n", exit_code=3), HINT_ERROR),
        (_result(), HINT_EMPTY),
        (_result(exit_code=None, timed_out=True), HINT_TIMEOUT),
        (
            _result(stdout="x" * 100 + truncation_marker(5000), stdout_truncated_bytes=5000),
            HINT_TRUNCATED,
        ),
    ],
)
def test_failure_replies_end_with_what_to_do_next(result: ExecResult, hint: str) -> None:
    reply = format_exec_result(result, timeout_s=10)
    assert reply.endswith(hint), reply
    assert hint not in stdout_of(reply)


def test_success_reply_has_no_hint_and_exact_stdout() -> None:
    stdout = '{"status": "ok", "answer": 1}\n'
    reply = format_exec_result(_result(stdout=stdout), timeout_s=10)
    assert stdout_of(reply) == stdout
    assert not any(h in reply for h in (HINT_EMPTY, HINT_ERROR, HINT_TIMEOUT, HINT_TRUNCATED))


def test_hints_say_what_to_do() -> None:
    assert "print" in HINT_EMPTY and "JSON" in HINT_EMPTY
    assert "fix" in HINT_ERROR
    assert "final JSON" in HINT_TIMEOUT or "faster" in HINT_TIMEOUT
