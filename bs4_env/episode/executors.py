"""Choose a sandbox backend by name (a setting in every integration)."""

from __future__ import annotations

from bs4_env.sandbox.base import Executor

EXECUTOR_KINDS = ("local", "subprocess")


def make_executor(
    kind: str = "local", pool_size: int | None = None, *, concurrency: int | None = None
) -> Executor:
    """``local``: the hardened warm-worker pool (default); ``subprocess``: a fresh interpreter
    per call (slow, weaker isolation; a baseline).

    ``pool_size`` is the number of workers the local pool starts without delay as concurrent
    calls need them (it starts with one). By default it is the expected ``concurrency``
    (rollouts run at once; an episode runs one call at a time, so that many workers mean no
    call waits for another's turn), capped at 32; with neither given, 4.
    Beyond it the pool grows by one worker whenever a call has waited a second behind a call
    running that long, up to 32 workers (or ``pool_size`` if larger).
    """
    if kind == "local":
        from bs4_env.sandbox.local_backend import (
            DEFAULT_MAX_POOL_SIZE,
            DEFAULT_POOL_SIZE,
            LocalExecutor,
        )

        if pool_size is None:
            if concurrency is not None and concurrency < 1:
                raise ValueError(f"concurrency must be >= 1, got {concurrency}")
            wanted = DEFAULT_POOL_SIZE if concurrency is None else concurrency
            pool_size = min(wanted, DEFAULT_MAX_POOL_SIZE)
        return LocalExecutor(pool_size=pool_size)
    if kind == "subprocess":
        from bs4_env.sandbox.subprocess_backend import SubprocessExecutor

        return SubprocessExecutor()
    raise ValueError(f"unknown executor {kind!r}; valid: {list(EXECUTOR_KINDS)}")
