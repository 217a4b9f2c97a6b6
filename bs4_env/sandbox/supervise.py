"""Worker-side supervision of one call: capped output, wall-clock deadline, total cleanup.

The call's stdout, stderr and report are moved with ``splice`` from their pipes into the
worker's memfds (the first ``limit`` bytes) or /dev/null (the rest, counted), later from the
memfds to the host, and the memfds are emptied before the next fork: the worker never reads
them, so nothing a call printed ever sits in the memory of the process the next call is forked
from. The only bytes the worker reads are the setup channel's, written by our own code before
model code runs and closed before it. When the call's process exits or its deadline passes,
every process of the call is killed.
"""

from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

from bs4_env.sandbox import syscalls as sc
from bs4_env.sandbox.protocol import REPORT_CAP

_CHUNK = 1 << 16
_DRAIN_GRACE_S = 0.5
# How long the worker waits for a call without moving its output (a pipe holds 64 KiB; a
# call that fills one sooner waits at most this long once).
_QUIET_S = 0.05
SETUP_CAP = 4096


@dataclass
class CallPipes:
    """The call's stdout, stderr, report and setup pipes (read end, write end)."""

    out_r: int
    out_w: int
    err_r: int
    err_w: int
    report_r: int
    report_w: int
    setup_r: int
    setup_w: int

    @classmethod
    def open(cls) -> CallPipes:
        (out_r, out_w), (err_r, err_w), (report_r, report_w) = (
            os.pipe2(os.O_CLOEXEC) for _ in range(3)
        )
        # Only our own code writes the setup channel (a few bytes): non-blocking at both ends
        # costs it nothing and lets the worker read it without waiting.
        setup_r, setup_w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        return cls(out_r, out_w, err_r, err_w, report_r, report_w, setup_r, setup_w)

    def child_ends(self) -> tuple[int, int, int, int]:
        return self.out_w, self.err_w, self.report_w, self.setup_w

    def close_child_ends(self) -> None:
        for fd in self.child_ends():
            os.close(fd)


class Sink:
    """Keeps the first ``limit`` bytes of a stream in a memfd and counts the rest.

    One per stream and worker, emptied after every call (``clear``): a memfd made and closed
    per call cost two system calls and the objects around them.
    """

    def __init__(self, name: str, limit: int, devnull: int) -> None:
        self.fd = os.memfd_create(name, os.MFD_CLOEXEC)
        self.limit = limit
        self.devnull = devnull
        self.kept = 0
        self.dropped = 0

    def pump(self, source: int, flags: int = 0) -> int:
        """Move what ``source`` has ready; returns 0 at end of stream."""
        if self.kept < self.limit:
            moved = os.splice(source, self.fd, min(_CHUNK, self.limit - self.kept),
                              offset_dst=self.kept, flags=flags)  # fmt: skip
            self.kept += moved
        else:
            moved = os.splice(source, self.devnull, _CHUNK, flags=flags)
            self.dropped += moved
        return moved

    def send(self, target: int) -> None:
        """Copy the kept bytes to ``target`` (a pipe or a socket), kernel to kernel."""
        # sendfile, not splice: splice needs a pipe end, and the worker's stdout is a
        # socket pair when the event loop (uvloop) spawned it.
        offset = 0
        while offset < self.kept:
            offset += os.sendfile(target, self.fd, offset, self.kept - offset)

    def clear(self) -> None:
        """Drop what the last call left: its bytes leave the memfd, the counts start again."""
        if self.kept:
            os.ftruncate(self.fd, 0)
        self.kept = self.dropped = 0


@dataclass
class Outcome:
    """What the worker observed: exit status or timeout, setup bytes, the kept streams."""

    exit_code: int | None
    setup: bytes
    sinks: tuple[Sink, Sink, Sink]
    duration_s: float


class _Streams:
    """The call's open read ends: output pipes spliced into sinks, the setup channel read."""

    def __init__(self, pipes: CallPipes, sinks: tuple[Sink, Sink, Sink]) -> None:
        self.sinks = dict(zip((pipes.out_r, pipes.err_r, pipes.report_r), sinks, strict=True))
        self.setup_fd: int | None = pipes.setup_r
        self.setup = bytearray()

    @property
    def open(self) -> bool:
        return bool(self.sinks) or self.setup_fd is not None

    def drain_ready(self) -> None:
        """Move what the pipes hold without waiting; forget those that reached end of stream.

        Once every writer is dead that is all of them, in a few calls and no ``select``.
        """
        for fd, sink in list(self.sinks.items()):
            try:
                while sink.pump(fd, os.SPLICE_F_NONBLOCK):
                    pass
            except BlockingIOError:
                continue  # a writer we did not kill: ``pump`` waits for it, up to the grace
            del self.sinks[fd]
        if self.setup_fd is not None:
            try:
                while self._read_setup(self.setup_fd):
                    pass
            except BlockingIOError:
                return

    def _read_setup(self, fd: int) -> bool:
        """Read the setup channel once; False (and forget it) at end of stream."""
        chunk = os.read(fd, SETUP_CAP)
        self.setup.extend(chunk[: SETUP_CAP - len(self.setup)])
        if not chunk:
            self.setup_fd = None
        return bool(chunk)

    def pump(self, timeout: float, also: list[int]) -> list[int]:
        """Move whatever is ready; forget fds at EOF; return which of ``also`` became ready."""
        setup = [] if self.setup_fd is None else [self.setup_fd]
        ready, _, _ = select.select([*self.sinks, *setup, *also], [], [], max(0.0, timeout))
        for fd in ready:
            if fd in self.sinks:
                if not self.sinks[fd].pump(fd):
                    del self.sinks[fd]
            elif fd == self.setup_fd:
                self._read_setup(fd)
        return [fd for fd in ready if fd in also]


def open_sinks(devnull: int) -> tuple[Sink, Sink, Sink]:
    """A worker's stdout, stderr and report sinks; ``devnull`` takes output past the caps."""
    return (Sink("stdout", 0, devnull), Sink("stderr", 0, devnull),
            Sink("report", REPORT_CAP, devnull))  # fmt: skip


def supervise(
    pid: int, pipes: CallPipes, sinks: tuple[Sink, Sink, Sink], timeout_s: float, pid_ns: bool
) -> Outcome:
    """Wait for the call's process (or its deadline), clean up, and describe it."""
    started = time.perf_counter()
    streams = _Streams(pipes, sinks)
    pidfd = os.pidfd_open(pid)
    deadline = time.monotonic() + timeout_s
    exit_code: int | None = None
    try:
        # First sleep on the process alone: most calls end within _QUIET_S with their output
        # still in the pipes. Running Python meanwhile would write pages the live child
        # shares, and every such write copies a page.
        if select.select([pidfd], [], [], max(0.0, min(timeout_s, _QUIET_S)))[0]:
            _, status = os.waitpid(pid, 0)
            exit_code = os.waitstatus_to_exitcode(status)
        while exit_code is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if streams.pump(remaining, [pidfd]):
                _, status = os.waitpid(pid, 0)
                exit_code = os.waitstatus_to_exitcode(status)
        duration = time.perf_counter() - started
        kill_all(pid_ns, pid)
        # Every writer is dead now; collect what is still buffered in the pipes.
        streams.drain_ready()
        grace_end = time.monotonic() + _DRAIN_GRACE_S
        while streams.open and time.monotonic() < grace_end:
            streams.pump(grace_end - time.monotonic(), [])
    finally:
        for fd in (pidfd, pipes.out_r, pipes.err_r, pipes.report_r, pipes.setup_r):
            os.close(fd)
    return Outcome(exit_code, bytes(streams.setup), sinks, duration)


def kill_all(pid_ns: bool, pid: int | None) -> None:
    """Kill and reap every process of the call.

    In a PID namespace the worker is PID 1, so ``kill(-1)`` reaches every other process in
    it (zombies included) and orphans reparent to us: when it finds none, nothing is left to
    reap. Otherwise the call's process group is killed and, as a child subreaper, we kill
    whatever orphans were reparented to us.
    """
    while True:
        if pid_ns:
            if not sc.signal_any(-1, signal.SIGKILL):
                return
        else:
            if pid is not None:
                _signal(os.killpg, pid)
            for child in _children():
                _signal(os.kill, child)
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _signal(send: Callable[[int, int], None], target: int) -> None:
    """SIGKILL ``target`` with ``send`` (no closure to build: this runs on every call)."""
    try:
        send(target, signal.SIGKILL)
    except ProcessLookupError:
        return  # already gone: exactly what we wanted


def _children() -> list[int]:
    pid = os.getpid()
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []
