"""Choose a sandbox backend by name (a setting in every integration)."""

from __future__ import annotations

from bs4_env.sandbox.base import Executor

EXECUTOR_KINDS = ("local", "subprocess")


def make_executor(kind: str = "local", pool_size: int | None = None) -> Executor:
    """``local``: the hardened warm-worker pool (default); ``subprocess``: a fresh interpreter
    per call (slow, weaker isolation; a baseline)."""
    if kind == "local":
        from bs4_env.sandbox.local_backend import LocalExecutor

        return LocalExecutor() if pool_size is None else LocalExecutor(pool_size=pool_size)
    if kind == "subprocess":
        from bs4_env.sandbox.subprocess_backend import SubprocessExecutor

        return SubprocessExecutor()
    raise ValueError(f"unknown executor {kind!r}; valid: {list(EXECUTOR_KINDS)}")
