"""A private, unique temp root per executor: ``<tmp>/bs4env-<uid>/exec-<pid>-<random>``.

Every worker of the executor gets a fresh directory below it, so names never collide between
workers, executors or leftovers of a crashed run. Each root is paired with a lock file that
its executor holds (``flock``) while alive; a root whose lock nobody holds is stale and is
removed when the next executor starts. The per-user parent must be a real directory owned by
this uid and closed to others, or nothing is created there (fail loud: someone else controls
it). Creation and the stale sweep run under one lock on the parent so they never race.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bs4_env.sandbox.cleanup import remove_tree

_PREFIX = "exec-"


class TempRootError(RuntimeError):
    """The per-user temp parent is unsafe or unusable."""


class TempRoot:
    """One executor's private directory tree; ``create`` it, ``new_dir`` per worker, ``remove``."""

    def __init__(self, parent: str | None = None) -> None:
        base = parent if parent is not None else tempfile.gettempdir()
        self.parent = Path(base) / f"bs4env-{os.geteuid()}"
        self.path: Path | None = None
        self._lock_fd: int | None = None
        self._count = 0

    def create(self) -> list[str]:
        """Make the root (sweeping stale ones first); returns problems met while sweeping."""
        _ensure_private_dir(self.parent)
        with _locked(self.parent / ".lock"):
            problems = _sweep_stale(self.parent)
            name = f"{_PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
            lock_fd = os.open(self.parent / f"{name}.lock", os.O_RDWR | os.O_CREAT | os.O_EXCL
                              | os.O_CLOEXEC, 0o600)  # fmt: skip
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.mkdir(self.parent / name, 0o700)
        self._lock_fd, self.path = lock_fd, self.parent / name
        return problems

    def new_dir(self, label: str) -> str:
        """A fresh, never reused directory for one worker process."""
        if self.path is None:
            raise RuntimeError("temp root not created")
        self._count += 1
        path = self.path / f"{label}-{self._count}"
        os.mkdir(path, 0o700)
        return str(path)

    def remove_dir(self, path: str) -> list[str]:
        """Delete one worker's directory (after the worker is gone); returns problems."""
        if self.path is None or Path(path).parent != self.path:
            raise ValueError(f"{path} is not a directory of this temp root")
        return remove_tree(path)

    def remove(self) -> list[str]:
        """Delete the whole root and release its lock; returns problems, never raises."""
        if self.path is None or self._lock_fd is None:
            return []
        problems = remove_tree(str(self.path))
        lock_path = self.path.with_name(self.path.name + ".lock")
        if not problems:
            with contextlib.suppress(FileNotFoundError):  # a sweeper may have taken it
                lock_path.unlink()
        os.close(self._lock_fd)
        self.path, self._lock_fd = None, None
        return problems


def _ensure_private_dir(path: Path) -> None:
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        raise TempRootError(f"{path} is not a directory owned by uid {os.geteuid()}")
    if stat.S_IMODE(info.st_mode) & 0o077:
        raise TempRootError(f"{path} is open to other users (mode {info.st_mode:o})")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield None
    finally:
        os.close(fd)


def _sweep_stale(parent: Path) -> list[str]:
    """Remove roots whose executor is gone (lock free) or that never got a lock."""
    problems: list[str] = []
    live: set[str] = set()
    for lock in parent.glob(f"{_PREFIX}*.lock"):
        fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            live.add(lock.name.removesuffix(".lock"))
            continue
        finally:
            os.close(fd)
        found = remove_tree(str(parent / lock.name.removesuffix(".lock")))
        problems.extend(found)
        if not found:
            lock.unlink()
    for root in parent.glob(f"{_PREFIX}*"):
        if root.name.endswith(".lock") or root.name in live:
            continue
        if not (parent / f"{root.name}.lock").exists():
            problems.extend(remove_tree(str(root)))
    return problems
