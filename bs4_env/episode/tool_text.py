"""How tool results are shown to the model (and read back by scripted policies)."""

from __future__ import annotations

from bs4_env.sandbox.base import ExecResult

STDOUT_HEADER = "stdout:\n"
STDERR_HEADER = "\nstderr:\n"


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
    return f"{head}\n{body}{tail}"


def stdout_of(reply: str) -> str:
    """The stdout section of a ``run_python`` reply ('' when there was none)."""
    start = reply.find(STDOUT_HEADER)
    if start == -1:
        return ""
    body = reply[start + len(STDOUT_HEADER) :]
    end = body.rfind(STDERR_HEADER)
    return body if end == -1 else body[:end]
