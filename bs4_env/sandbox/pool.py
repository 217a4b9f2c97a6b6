"""Host side of one warm worker, and the pool that hands workers to calls.

The host never buffers more than one bounded frame per worker, never blocks the event
loop, and treats any worker failure (died, hung, garbled) as an infrastructure error:
the worker is killed and replaced, and the call says so in ``infra_error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections import deque

from bs4_env.sandbox.isolation import SAFE_ENV, LayerStatus
from bs4_env.sandbox.protocol import Message, PageCache, ProtocolError, encode, read_frame

WORKER_START_TIMEOUT_S = 60.0
# The worker enforces the call's timeout itself; this only catches a hung worker.
SUPERVISION_GRACE_S = 5.0


class WorkerError(Exception):
    """The worker process failed; the call did not run to a verdict."""


class WorkerProcess:
    """One warm worker: spawn, send a request, read its answer, kill."""

    def __init__(self, slot: int, uid: int) -> None:
        self.slot = slot
        self.uid = uid
        self.pages = PageCache()
        self.layers: list[LayerStatus] = []
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
            sys.executable, "-I", "-m", "bs4_env.sandbox.worker", "--uid", str(self.uid),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=dict(SAFE_ENV),
            cwd="/",
            start_new_session=True,
            limit=1 << 16,
        )  # fmt: skip
        try:
            hello = await asyncio.wait_for(self._read(), WORKER_START_TIMEOUT_S)
        except (TimeoutError, WorkerError) as error:
            await self.kill()
            raise WorkerError(f"worker did not start: {error}") from error
        self.layers = [LayerStatus(**layer) for layer in hello.get("layers", [])]

    async def call(self, request: Message, timeout_s: float) -> Message:
        """Send one request and wait (bounded) for its answer."""
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise WorkerError("worker not started")
        try:
            proc.stdin.write(encode(request))
            await proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as error:
            raise WorkerError(f"worker gone before the request: {error}") from error
        try:
            return await asyncio.wait_for(self._read(), timeout_s + SUPERVISION_GRACE_S)
        except TimeoutError as error:
            raise WorkerError("worker did not answer in time") from error

    async def _read(self) -> Message:
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
    """Hands idle workers to callers, preferring one that already holds the page."""

    def __init__(self) -> None:
        self._idle: list[WorkerProcess] = []
        self._waiters: deque[asyncio.Future[WorkerProcess]] = deque()

    async def acquire(self, page_key: str) -> WorkerProcess:
        for index, worker in enumerate(self._idle):
            if page_key in worker.pages:
                return self._idle.pop(index)
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

    def take_idle(self) -> list[WorkerProcess]:
        idle, self._idle = self._idle, []
        return idle
