"""How tool results are shown to the model (and read back by scripted policies)."""

from __future__ import annotations

from bs4_env.sandbox.base import ExecResult

STDOUT_HEADER = "stdout:\n"
STDERR_HEADER = "\nstderr:\n"
TIMING_PREFIX = "time: "

# What to do next after a failed or empty run: generic (the same on every task), last in
# the reply, where a small model reads it.
HINT_ERROR = "next: your code failed; fix the error above and run it again."
HINT_TIMEOUT = "next: make the code faster (parse the page once, avoid loops over every tag)."
HINT_EMPTY = (
    "next: nothing was printed; print() what you need, then reply with your final JSON object."
)
HINT_TRUNCATED = "next: the output was cut; print less (only the elements you need)."
_HINTS = (HINT_ERROR, HINT_TIMEOUT, HINT_EMPTY, HINT_TRUNCATED)


def format_exec_result(result: ExecResult, timeout_s: float) -> str:
    """Exit status, stdout, then stderr or traceback, in one plain-text reply."""
    if result.infra_error is not None:
        return f"sandbox error (not caused by your code): {result.infra_error}. Try again."
    if result.timed_out:
        head = f"error: your code was stopped after the {timeout_s:g} s time limit."
    else:
        head = f"exit status: {result.exit_code}"
    body = f"{STDOUT_HEADER}{result.stdout}" if result.stdout else "stdout: (empty)"
    tail = f"{STDERR_HEADER}{result.stderr}" if result.stderr else ""
    hint = _hint(result)
    return f"{head}\n{timing_line(result)}\n{body}{tail}" + (f"\n{hint}" if hint else "")


def _hint(result: ExecResult) -> str:
    if result.timed_out:
        return HINT_TIMEOUT
    if result.exit_code != 0:
        return HINT_ERROR
    if result.stdout_truncated_bytes or result.stderr_truncated_bytes:
        return HINT_TRUNCATED
    return "" if result.stdout else HINT_EMPTY


def timing_line(result: ExecResult) -> str:
    """Run time and queue wait, apart: waiting for a free sandbox is not the code's time."""
    ran, waited = result.duration_s, result.queue_wait_s
    return f"{TIMING_PREFIX}ran {ran:.2f} s, waited {waited:.2f} s for a free sandbox"


def without_timing(reply: str) -> str:
    """A reply without its timing line (the second line; the only part that varies by run)."""
    head, newline, rest = reply.partition("\n")
    if not rest.startswith(TIMING_PREFIX):
        return reply
    return head + newline + rest.partition("\n")[2]


def stdout_of(reply: str) -> str:
    """The stdout section of a ``run_python`` reply ('' when there was none)."""
    for hint in _HINTS:
        if reply.endswith("\n" + hint):
            reply = reply[: -len(hint) - 1]
            break
    start = reply.find(STDOUT_HEADER)
    if start == -1:
        return ""
    body = reply[start + len(STDOUT_HEADER) :]
    end = body.rfind(STDERR_HEADER)
    return body if end == -1 else body[:end]
