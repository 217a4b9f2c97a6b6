"""``LocalExecutor``: a hardened warm pool of fork-server workers on this machine.

Calls are queued onto ``pool_size`` warm workers; each call runs in a fresh child forked
from a worker with bs4 and every parser already loaded, inside the isolation layers of
``isolation`` (namespaces, hidden secrets, unprivileged uid, Landlock, seccomp, rlimits).
A worker that dies or hangs during a call turns that call into an ``infra_error``; one
found dead before a call is skipped; both are replaced in the background. ``aclose``
stops every worker and everything they spawned.
"""

from __future__ import annotations

import asyncio
import logging
import time

from bs4_env.sandbox.base import ExecRequest, ExecResult, Executor
from bs4_env.sandbox.isolation import LayerStatus
from bs4_env.sandbox.pool import Pool, WorkerError, WorkerProcess
from bs4_env.sandbox.protocol import Message, page_key

_log = logging.getLogger(__name__)
DEFAULT_POOL_SIZE = 4
DEFAULT_UID_BASE = 60000
_RESPAWN_BACKOFF_S = 1.0


class LocalExecutor(Executor):
    """Runs programs in sandboxed children of ``pool_size`` warm workers.

    Each worker slot runs its calls as its own uid (``uid_base + slot``) so per-user
    limits such as RLIMIT_NPROC cannot be exhausted by a neighbouring call.
    """

    def __init__(self, pool_size: int = DEFAULT_POOL_SIZE, uid_base: int = DEFAULT_UID_BASE):
        if pool_size < 1:
            raise ValueError(f"pool_size must be >= 1, got {pool_size}")
        self.pool_size = pool_size
        self.uid_base = uid_base
        self._pool = Pool()
        self._workers: dict[int, WorkerProcess] = {}
        self._respawns: set[asyncio.Task[None]] = set()
        self._start_lock = asyncio.Lock()
        self._started = False
        self._closed = False

    @property
    def worker_pids(self) -> list[int]:
        """Host-side pids of the current workers (for tests and diagnostics)."""
        return [pid for w in self._workers.values() if (pid := w.pid) is not None]

    @property
    def layers(self) -> list[LayerStatus]:
        """The isolation layers the workers reported at start-up."""
        return next((w.layers for w in self._workers.values() if w.layers), [])

    async def start(self) -> None:
        """Spawn all workers (concurrently); ``run`` does this on first use."""
        async with self._start_lock:
            if self._closed:
                raise RuntimeError("executor is closed")
            if self._started:
                return
            workers = [WorkerProcess(slot, self.uid_base + slot) for slot in range(self.pool_size)]
            results = await asyncio.gather(*(w.start() for w in workers), return_exceptions=True)
            for worker, outcome in zip(workers, results, strict=True):
                if isinstance(outcome, BaseException):
                    await asyncio.gather(*(w.kill() for w in workers))
                    raise RuntimeError(f"sandbox worker failed to start: {outcome}") from outcome
                self._workers[worker.slot] = worker
                self._pool.release(worker)
            self._started = True
            inactive = [
                f"{layer.name} ({layer.detail})" for layer in self.layers if not layer.active
            ]
            if inactive:
                # Degrade loudly: model code runs with weaker isolation than designed.
                _log.warning("sandbox isolation layers inactive here: %s", "; ".join(inactive))

    async def run(self, request: ExecRequest) -> ExecResult:
        await self.start()
        key = page_key(request.html)
        worker = await self._pool.acquire(key)
        while not worker.alive and not self._closed:
            # It died between calls (not this program's doing): replace it, wait for a slot.
            self._respawn(worker)
            worker = await self._pool.acquire(key)
        started = time.perf_counter()
        try:
            reply = await self._call(worker, request, key)
        except WorkerError as error:
            self._respawn(worker)
            return ExecResult(
                "", "", None, False, time.perf_counter() - started, infra_error=str(error)
            )
        self._pool.release(worker)
        return ExecResult(
            stdout=str(reply["stdout"]),
            stderr=str(reply["stderr"]),
            exit_code=reply["exit_code"],
            timed_out=bool(reply["timed_out"]),
            duration_s=time.perf_counter() - started,
            stdout_truncated_bytes=int(reply["stdout_truncated_bytes"]),
            stderr_truncated_bytes=int(reply["stderr_truncated_bytes"]),
            soup_parses=int(reply["soup_parses"]),
            infra_error=reply.get("infra_error"),
        )

    async def _call(self, worker: WorkerProcess, request: ExecRequest, key: str) -> Message:
        message: Message = {
            "page_key": key,
            "code": request.code,
            "query": request.query,
            "timeout_s": request.timeout_s,
            "max_output_bytes": request.max_output_bytes,
        }
        if worker.pages.get(key) is None:
            message["html"] = request.html
        reply = await worker.call(message, request.timeout_s)
        if reply.get("cache_miss"):
            # The mirrors drifted (should not happen); resend the page and resync.
            worker.pages.clear()
            message["html"] = request.html
            reply = await worker.call(message, request.timeout_s)
        if "html" in message:
            worker.pages.put(key, "")
        if "infra_error" in reply and "stdout" not in reply:
            raise WorkerError(str(reply["infra_error"]))
        return reply

    def _respawn(self, dead: WorkerProcess) -> None:
        """Replace a failed worker in the background; its slot rejoins the pool when ready."""
        task = asyncio.get_running_loop().create_task(self._replace(dead))
        self._respawns.add(task)
        task.add_done_callback(self._respawns.discard)

    async def _replace(self, dead: WorkerProcess) -> None:
        await dead.kill()
        while not self._closed:
            fresh = WorkerProcess(dead.slot, dead.uid)
            self._workers[dead.slot] = fresh
            try:
                await fresh.start()
            except (WorkerError, OSError) as error:
                _log.warning("respawn of sandbox slot %d failed: %s; retrying", dead.slot, error)
                await asyncio.sleep(_RESPAWN_BACKOFF_S)
                continue
            if self._closed:
                await fresh.close()
            else:
                self._pool.release(fresh)
            return

    async def aclose(self) -> None:
        """Stop every worker; each kills its whole namespace before exiting."""
        self._closed = True
        for task in list(self._respawns):
            task.cancel()
        await asyncio.gather(*self._respawns, return_exceptions=True)
        self._pool.take_idle()
        await asyncio.gather(*(w.close() for w in self._workers.values()))
        self._workers.clear()
