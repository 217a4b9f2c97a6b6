"""Worker-side supervision of one call: capped output, wall-clock deadline, total cleanup.

Output is read as it arrives and only the first ``limit`` bytes are kept, so a program
printing gigabytes costs the worker a counter, not memory. When the call's main process
exits or its deadline passes, every other process of the call is killed and reaped.
"""

from __future__ import annotations

import functools
import json
import os
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

from bs4_env.sandbox.base import truncation_marker
from bs4_env.sandbox.protocol import Message

_CHUNK = 1 << 16
_DRAIN_GRACE_S = 0.5


@dataclass
class Pipes:
    """The call's stdout, stderr and report pipes (read end, write end)."""

    out_r: int
    out_w: int
    err_r: int
    err_w: int
    report_r: int
    report_w: int

    @classmethod
    def open(cls) -> Pipes:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        report_r, report_w = os.pipe()
        return cls(out_r, out_w, err_r, err_w, report_r, report_w)

    def close_child_ends(self) -> None:
        for fd in (self.out_w, self.err_w, self.report_w):
            os.close(fd)

    def close_all(self) -> None:
        self.close_child_ends()
        for fd in (self.out_r, self.err_r, self.report_r):
            os.close(fd)


class Capped:
    """Keeps the first ``limit`` bytes of a stream and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        if len(self.kept) < self.limit:
            self.kept.extend(chunk[: self.limit - len(self.kept)])

    def text(self) -> tuple[str, int]:
        dropped = self.total - len(self.kept)
        text = self.kept.decode("utf-8", errors="replace")
        return (text + truncation_marker(dropped) if dropped else text), dropped


def _pump(fds: dict[int, Capped], timeout: float, also: list[int]) -> list[int]:
    """Read whatever is ready; drop fds at EOF; return which of ``also`` became ready."""
    ready, _, _ = select.select([*fds, *also], [], [], max(0.0, timeout))
    for fd in ready:
        if fd in fds:
            chunk = os.read(fd, _CHUNK)
            if chunk:
                fds[fd].add(chunk)
            else:
                del fds[fd]
    return [fd for fd in ready if fd in also]


def supervise(pid: int, pipes: Pipes, timeout_s: float, limit: int, pid_ns: bool) -> Message:
    """Wait for the call's main process (or its deadline), clean up, and describe it."""
    out, err = Capped(limit), Capped(limit)
    report = Capped(1 << 16)
    streams = {pipes.out_r: out, pipes.err_r: err, pipes.report_r: report}
    pidfd = os.pidfd_open(pid)
    deadline = time.monotonic() + timeout_s
    exit_code: int | None = None
    try:
        while exit_code is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if _pump(streams, remaining, [pidfd]):
                _, status = os.waitpid(pid, 0)
                exit_code = os.waitstatus_to_exitcode(status)
        kill_all(pid_ns, pid)
        # Every writer is dead now; collect what is still buffered in the pipes.
        grace_end = time.monotonic() + _DRAIN_GRACE_S
        while streams and time.monotonic() < grace_end:
            _pump(streams, grace_end - time.monotonic(), [])
    finally:
        os.close(pidfd)
        for fd in (pipes.out_r, pipes.err_r, pipes.report_r):
            os.close(fd)
    stdout, out_dropped = out.text()
    stderr, err_dropped = err.text()
    info = _parse_report(bytes(report.kept))
    return {
        "stdout": stdout,
        "stderr": stderr,
        "exit_code": exit_code,
        "timed_out": exit_code is None,
        "stdout_truncated_bytes": out_dropped,
        "stderr_truncated_bytes": err_dropped,
        "soup_parses": _as_int(info.get("soup_parses")),
        "infra_error": info.get("infra_error"),
    }


def _parse_report(raw: bytes) -> dict[str, object]:
    try:
        value = json.loads(raw.decode()) if raw else {}
    except (UnicodeDecodeError, json.JSONDecodeError):
        # The model can write to fd 3 too; a garbled report only loses the parse count.
        return {}
    return value if isinstance(value, dict) else {}


def _as_int(value: object) -> int:
    return value if isinstance(value, int) else 0


def kill_all(pid_ns: bool, pid: int | None) -> None:
    """Kill and reap every process of the call.

    In a PID namespace the worker is PID 1, so ``kill(-1)`` reaches every other process in
    it and orphans reparent to us; otherwise the call's process group is killed and, as a
    child subreaper, we kill whatever orphans were reparented to us.
    """
    while True:
        if pid_ns:
            _signal(lambda: os.kill(-1, signal.SIGKILL))
        else:
            if pid is not None:
                _signal(lambda: os.killpg(pid, signal.SIGKILL))
            for child in _children():
                _signal(functools.partial(os.kill, child, signal.SIGKILL))
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _signal(send: Callable[[], None]) -> None:
    try:
        send()
    except ProcessLookupError:
        return  # already gone: exactly what we wanted


def _children() -> list[int]:
    pid = os.getpid()
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []
