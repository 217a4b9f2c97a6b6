"""``LocalExecutor``: a hardened warm pool of fork-server workers on this machine.

Calls are queued (first come, first served) onto warm workers; each call runs in a fresh
child forked from a worker with bs4 and every parser already loaded, inside the isolation
layers of ``isolation`` and ``call_layers``. The pool starts one worker; a call that finds
no idle worker starts another at once while fewer than ``pool_size`` exist (so a pool costs
the concurrency it meets, not the one it was sized for, and the first call waits for one
worker, not all). Past ``pool_size`` it grows by one, up to ``max_pool_size``, whenever a call
has waited ``grow_after_s`` while a worker has been busy on one call that long: slow calls
cannot starve the others for long, and short bursts cost no extra processes. A worker that
dies, hangs or loses step during a call turns that call into an ``infra_error``; one found
dead before a call is skipped; both are replaced in the background. ``aclose`` stops every
worker and removes the executor's private temp root (``temproot``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Coroutine
from typing import Any

from bs4_env.sandbox.base import ExecRequest, ExecResult, Executor
from bs4_env.sandbox.isolation import LayerStatus
from bs4_env.sandbox.pool import Pool, WorkerError, WorkerProcess
from bs4_env.sandbox.protocol import run_request
from bs4_env.sandbox.temproot import TempRoot

_log = logging.getLogger(__name__)
# Sets of inactive layers already reported by this process (see warn_inactive_layers).
_reported: set[tuple[str, ...]] = set()


def warn_inactive_layers(layers: list[LayerStatus]) -> bool:
    """Warn once per process about isolation layers that are inactive; True if it warned.

    Degrade loudly (model code runs with weaker isolation than designed), but a script that
    starts many executors needs the line once; ``bs4-env doctor`` prints every layer's detail.
    """
    inactive = tuple(layer.name for layer in layers if not layer.active)
    if not inactive or inactive in _reported:
        return False
    _reported.add(inactive)
    _log.warning(
        "sandbox isolation layers inactive here: %s (`bs4-env doctor` says why)",
        ", ".join(inactive),
    )
    return True


DEFAULT_POOL_SIZE = 4
DEFAULT_MAX_POOL_SIZE = 32
DEFAULT_GROW_AFTER_S = 1.0
DEFAULT_UID_BASE = 60000
MAX_SLOTS = 100  # sandbox uids are uid_base .. uid_base + 99
_RESPAWN_BACKOFF_S = 1.0


class LocalExecutor(Executor):
    """Runs programs in sandboxed children of warm workers.

    As root each worker slot runs its calls as its own uid (``uid_base + slot``), so
    per-user limits such as RLIMIT_NPROC cannot be exhausted by a neighbouring call. Without
    root, each call gets its own mount and IPC namespaces through a user namespace where the
    kernel allows it (``user_namespaces=False`` turns that off).
    """

    def __init__(
        self,
        pool_size: int = DEFAULT_POOL_SIZE,
        uid_base: int = DEFAULT_UID_BASE,
        *,
        max_pool_size: int | None = None,
        grow_after_s: float = DEFAULT_GROW_AFTER_S,
        user_namespaces: bool = True,
        temp_parent: str | None = None,
    ) -> None:
        ceiling = max(pool_size, DEFAULT_MAX_POOL_SIZE) if max_pool_size is None else max_pool_size
        if not 1 <= pool_size <= ceiling <= MAX_SLOTS:
            raise ValueError(
                f"need 1 <= pool_size ({pool_size}) <= max_pool_size ({ceiling}) <= {MAX_SLOTS}"
            )
        if grow_after_s <= 0:
            raise ValueError(f"grow_after_s must be > 0, got {grow_after_s}")
        self.pool_size = pool_size
        self.max_pool_size = ceiling
        self.grow_after_s = grow_after_s
        self.uid_base = uid_base
        self.user_namespaces = user_namespaces
        self.temp_root = TempRoot(temp_parent)
        self._pool = Pool()
        self._workers: dict[int, WorkerProcess] = {}
        self._busy_since: dict[int, float] = {}
        self._growing: set[int] = set()
        self._background: set[asyncio.Task[None]] = set()
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

    @property
    def worker_namespaces(self) -> list[dict[str, int]]:
        """Each worker's own IPC and mount namespace ids (a call's must differ from all)."""
        return [w.namespaces for w in self._workers.values()]

    async def start(self) -> None:
        """Create the temp root and spawn the first worker; ``run`` does this on first use.

        The first worker is awaited, so a machine where workers cannot start fails here, loudly;
        the others start as concurrent calls need them (``_wait_for_worker``).
        """
        async with self._start_lock:
            if self._closed:
                raise RuntimeError("executor is closed")
            if self._started:
                return
            for problem in self.temp_root.create():
                _log.warning("stale sandbox temp root not fully removed: %s", problem)
            worker = self._new_worker(0)
            try:
                await worker.start()
            except BaseException as error:
                await worker.kill()
                self.temp_root.remove()
                if isinstance(error, Exception):
                    raise RuntimeError(f"sandbox worker failed to start: {error}") from error
                raise
            self._workers[worker.slot] = worker
            self._pool.release(worker)
            self._started = True
            warn_inactive_layers(self.layers)

    def _new_worker(self, slot: int) -> WorkerProcess:
        workdir = self.temp_root.new_dir(f"slot{slot}")
        return WorkerProcess(slot, self.uid_base + slot, workdir, self.user_namespaces)

    async def run(self, request: ExecRequest) -> ExecResult:
        await self.start()
        queued = time.perf_counter()
        worker = await self._acquire()
        started = time.perf_counter()
        self._busy_since[worker.slot] = time.monotonic()
        key = secrets.token_hex(16)
        payload = run_request(request.code, request.html, request.query, key, request.timeout_s,
                              request.max_output_bytes)  # fmt: skip
        try:
            reply = await worker.call(payload, request.timeout_s, request.max_output_bytes)
            result = reply.result(key, time.perf_counter() - started, started - queued)
        except WorkerError as error:
            self._busy_since.pop(worker.slot, None)
            self._respawn(worker)
            elapsed = time.perf_counter() - started
            return ExecResult("", "", None, False, elapsed, infra_error=str(error),
                              queue_wait_s=started - queued)  # fmt: skip
        self._busy_since.pop(worker.slot, None)
        if reply.restart:
            self._respawn(worker)
        else:
            self._pool.release(worker)
        return result

    async def _acquire(self) -> WorkerProcess:
        """A live idle worker; while waiting, grow the pool if slow calls hold every worker."""
        while True:
            worker = await self._wait_for_worker()
            if worker.alive or self._closed:
                return worker
            # It died between calls (not this program's doing): replace it, wait again.
            self._respawn(worker)

    async def _wait_for_worker(self) -> WorkerProcess:
        idle = self._pool.take_one()
        if idle is not None:
            return idle  # the usual case needs no task, future or timer
        if len(self._workers.keys() | self._growing) < self.pool_size:
            self._add_worker()  # within pool_size a waiting call never waits grow_after_s
        acquire = asyncio.ensure_future(self._pool.acquire())
        try:
            while not (await asyncio.wait({acquire}, timeout=self.grow_after_s))[0]:
                self._grow_if_starved()
        except asyncio.CancelledError:
            if acquire.done() and not acquire.cancelled() and acquire.exception() is None:
                self._pool.release(acquire.result())  # handed over just as we were cancelled
            acquire.cancel()
            raise
        return acquire.result()

    def _grow_if_starved(self) -> None:
        """Add a worker if one has been busy on a single call for ``grow_after_s``."""
        now = time.monotonic()
        if any(now - since >= self.grow_after_s for since in self._busy_since.values()):
            self._add_worker()

    def _add_worker(self) -> None:
        """Start a worker in the lowest free slot below ``max_pool_size``, if there is one."""
        free = [s for s in range(self.max_pool_size) if s not in self._workers
                and s not in self._growing]  # fmt: skip
        if free and not self._closed:
            self._growing.add(free[0])
            self._spawn(self._grow(free[0]))

    async def _grow(self, slot: int) -> None:
        try:
            await self._start_worker(slot)
        finally:
            self._growing.discard(slot)

    def _respawn(self, dead: WorkerProcess) -> None:
        """Replace a failed worker in the background; its slot rejoins the pool when ready."""
        self._spawn(self._replace(dead))

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _replace(self, dead: WorkerProcess) -> None:
        await dead.kill()
        await asyncio.to_thread(self.temp_root.remove_dir, dead.workdir)
        await self._start_worker(dead.slot)

    async def _start_worker(self, slot: int) -> None:
        while not self._closed:
            fresh = self._new_worker(slot)
            self._workers[slot] = fresh
            try:
                await fresh.start()
            except (WorkerError, OSError) as error:
                _log.warning("start of sandbox slot %d failed: %s; retrying", slot, error)
                await asyncio.sleep(_RESPAWN_BACKOFF_S)
                continue
            if self._closed:
                await fresh.close()
            else:
                self._pool.release(fresh)
            return

    async def aclose(self) -> None:
        """Stop every worker (each kills its whole namespace) and remove the temp root."""
        self._closed = True
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        self._pool.take_idle()
        await asyncio.gather(*(w.close() for w in self._workers.values()))
        self._workers.clear()
        for problem in await asyncio.to_thread(self.temp_root.remove):
            _log.warning("sandbox temp root not fully removed: %s", problem)
