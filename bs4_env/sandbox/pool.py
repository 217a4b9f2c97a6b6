"""Host side of one warm worker, and the queue that hands idle workers to calls.

The host never buffers more than one bounded reply per worker, never blocks the event loop,
and treats any worker failure (died, hung, garbled, out of step) as an infrastructure
error: the worker is killed and replaced, and the call says so in ``infra_error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from bs4_env.sandbox.base import ExecResult, truncation_marker
from bs4_env.sandbox.host_protocol import read_frame, read_reply
from bs4_env.sandbox.isolation import SAFE_ENV, LayerStatus
from bs4_env.sandbox.protocol import Message, ProtocolError, Section, encode, parse_report

WORKER_START_TIMEOUT_S = 60.0
# The directory this process imported ``bs4_env`` from. ``python -I`` ignores PYTHONPATH, so
# a worker would otherwise import whichever ``bs4_env`` the interpreter's site-packages name
# (another checkout sharing the venv, an older install) and run code the host never loaded.
PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])
# LD_BIND_NOW: the dynamic linker resolves every symbol once, in the template, instead of in
# each call's child on first use (which also copies the page it writes). Calls never see it:
# the template replaces its environment with the calls' own (``call_layers``).
WORKER_ENV = {**SAFE_ENV, "LD_BIND_NOW": "1"}
_BOOTSTRAP = (
    "import sys; root = sys.argv.pop(1)\n"
    "if root not in sys.path: sys.path.insert(0, root)\n"
    "from bs4_env.sandbox.worker import main; main()"
)
# The worker enforces the call's timeout itself; this only catches a hung worker.
SUPERVISION_GRACE_S = 5.0


class WorkerError(Exception):
    """The worker process failed; the call did not run to a verdict."""


@dataclass(frozen=True)
class Reply:
    """A worker's answer to one call: its verdict and the raw output sections."""

    header: Message
    sections: dict[str, Section]

    @property
    def restart(self) -> bool:
        """The worker will exit after this reply (it cannot safely serve another call)."""
        return bool(self.header.get("restart"))

    def result(self, key: str, duration_s: float, queue_wait_s: float) -> ExecResult:
        """The call's ``ExecResult`` (raises ``WorkerError`` if the worker's verdict is bad)."""
        header = self.header
        exit_code, timed_out, infra = (header.get(k) for k in ("exit_code", "timed_out",
                                                               "infra_error"))  # fmt: skip
        if not (exit_code is None or isinstance(exit_code, int)) or not isinstance(timed_out, bool):
            raise WorkerError(f"worker sent a bad verdict: {header!r}")
        if infra is not None and not isinstance(infra, str):
            raise WorkerError(f"worker sent a bad verdict: {header!r}")
        stdout, out_dropped = _text(self.sections["stdout"])
        stderr, err_dropped = _text(self.sections["stderr"])
        return ExecResult(
            stdout=stdout,
            stderr=stderr,
            exit_code=exit_code,
            timed_out=timed_out,
            duration_s=duration_s,
            stdout_truncated_bytes=out_dropped,
            stderr_truncated_bytes=err_dropped,
            soup_parses=0 if infra else parse_report(self.sections["report"], key),
            infra_error=infra,
            queue_wait_s=queue_wait_s,
        )


def _text(section: Section) -> tuple[str, int]:
    """Decode kept output (invalid UTF-8 replaced) and mark what was dropped."""
    text = section.data.decode("utf-8", errors="replace")
    return (text + truncation_marker(section.dropped) if section.dropped else text), section.dropped


class WorkerProcess:
    """One warm worker: spawn, send a request, read its answer, kill."""

    def __init__(self, slot: int, uid: int, workdir: str, user_namespaces: bool) -> None:
        self.slot = slot
        self.uid = uid
        self.workdir = workdir
        self.user_namespaces = user_namespaces
        self.layers: list[LayerStatus] = []
        self.namespaces: dict[str, int] = {}
        self.huge_pages: tuple[int, str] = (0, "")
        """Bytes of the template the kernel backs with huge pages, and why not more."""
        self._proc: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    @property
    def alive(self) -> bool:
        proc = self._proc
        return proc is not None and proc.returncode is None and not _at_eof(proc)

    async def start(self) -> None:
        """Spawn the worker with a scrubbed environment and wait for its ready message."""
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-c", _BOOTSTRAP, PACKAGE_PARENT, "--uid", str(self.uid),
            "--workdir", self.workdir, "--user-namespaces", str(int(self.user_namespaces)),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=WORKER_ENV,
            cwd="/",
            start_new_session=True,
            limit=1 << 16,
        )  # fmt: skip
        try:
            hello = await asyncio.wait_for(self._read_hello(), WORKER_START_TIMEOUT_S)
        except (TimeoutError, WorkerError) as error:
            await self.kill()
            raise WorkerError(f"worker did not start: {error}") from error
        self.layers = [LayerStatus(**layer) for layer in hello.get("layers", [])]
        self.namespaces = dict(hello.get("namespaces", {}))
        size, declined = hello.get("huge_pages", (0, ""))
        self.huge_pages = (int(size), str(declined))

    async def call(self, request: bytes, timeout_s: float, output_limit: int) -> Reply:
        """Send one encoded request and wait (bounded) for its reply."""
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise WorkerError("worker not started")
        stdout = proc.stdout
        try:
            proc.stdin.write(request)
            await proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as error:
            raise WorkerError(f"worker gone before the request: {error}") from error
        try:
            # asyncio.timeout, not wait_for: no task per call.
            async with asyncio.timeout(timeout_s + SUPERVISION_GRACE_S):
                header, sections = await read_reply(stdout, output_limit)
        except TimeoutError as error:
            raise WorkerError("worker did not answer in time") from error
        except asyncio.IncompleteReadError as error:
            raise WorkerError(f"worker died (exit status {proc.returncode})") from error
        except ProtocolError as error:
            raise WorkerError(f"worker sent garbage: {error}") from error
        return Reply(header, sections)

    async def _read_hello(self) -> Message:
        proc = self._proc
        if proc is None or proc.stdout is None:
            raise WorkerError("worker not started")
        try:
            return await read_frame(proc.stdout)
        except asyncio.IncompleteReadError as error:
            raise WorkerError(f"worker died (exit status {proc.returncode})") from error
        except ProtocolError as error:
            raise WorkerError(f"worker sent garbage: {error}") from error

    async def close(self) -> None:
        """Ask the worker to exit (it kills its namespace first), then make sure."""
        proc = self._proc
        if proc is not None and proc.returncode is None and proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                proc.stdin.write(encode({"op": "close"}))
                proc.stdin.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 2.0)
        await self.kill()

    async def kill(self) -> None:
        """SIGKILL the worker's process group; its namespace dies with it (PDEATHSIG)."""
        proc = self._proc
        if proc is None:
            return
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()
        if proc.stdin is not None:
            proc.stdin.close()


def _at_eof(proc: asyncio.subprocess.Process) -> bool:
    return proc.stdout is not None and proc.stdout.at_eof()


class Pool:
    """Hands idle workers to callers, first come first served."""

    def __init__(self) -> None:
        self._idle: list[WorkerProcess] = []
        self._waiters: deque[asyncio.Future[WorkerProcess]] = deque()

    @property
    def waiting(self) -> int:
        """Callers waiting for a worker right now."""
        return sum(not w.done() for w in self._waiters)

    async def acquire(self) -> WorkerProcess:
        if self._idle:
            return self._idle.pop()
        waiter: asyncio.Future[WorkerProcess] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release(waiter.result())  # handed over just as we were cancelled
            raise

    def release(self, worker: WorkerProcess) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def take_one(self) -> WorkerProcess | None:
        """An idle worker at once, or None (idle workers exist only while nobody waits)."""
        return self._idle.pop() if self._idle else None

    def take_idle(self) -> list[WorkerProcess]:
        idle, self._idle = self._idle, []
        return idle
