"""Removing a directory tree that hostile code may have shaped: no recursion, no symlinks.

``shutil.rmtree`` recurses once per level (3,000 nested directories raise ``RecursionError``)
and holds a descriptor per level. Here the walk keeps an explicit stack of at most
``_MAX_DEPTH`` open directories; anything deeper is first renamed up to the top directory (a
rename within one file system is O(1)), so any depth and any number of entries is handled with
bounded memory and descriptors. Symlinks are removed, never followed; directories the code made
unreadable are chmod-ed back first. Nothing here raises: problems come back as text.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from functools import partial

_MAX_DEPTH = 32
_MAX_HOISTS = 1 << 20
_MAX_PROBLEMS = 20
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class _Level:
    """One open directory on the walk's stack."""

    def __init__(self, fd: int, name: str) -> None:
        self.fd = fd
        self.name = name  # its name in the parent level's directory
        self.entries: Iterator[os.DirEntry[str]] = iter(os.scandir(fd))


def remove_tree(path: str, keep_top: bool = False) -> list[str]:
    """Delete ``path`` and everything under it (only its contents if ``keep_top``).

    Returns the problems met (empty when everything is gone); never raises.
    """
    problems: list[str] = []
    hoisted = 0
    while True:  # every pass may hoist deep directories to the top; the next pass takes them
        try:
            top = os.open(path, _DIR_FLAGS)
        except FileNotFoundError:
            return problems
        except OSError as error:
            return [*problems, f"cannot open {path}: {error}"]
        try:
            before = hoisted
            hoisted = _walk(top, hoisted, problems)
        finally:
            os.close(top)
        if hoisted == before or hoisted > _MAX_HOISTS or len(problems) > _MAX_PROBLEMS:
            break
    if hoisted > _MAX_HOISTS:
        problems.append(f"gave up after hoisting {hoisted} directories")
    if not keep_top:
        _attempt(problems, partial(os.rmdir, path))
    return problems[:_MAX_PROBLEMS]


def _walk(top: int, hoisted: int, problems: list[str]) -> int:
    """One depth-first pass over ``top``; returns the running count of hoisted directories."""
    stack = [_Level(os.dup(top), "")]
    try:
        while stack and len(problems) <= _MAX_PROBLEMS:
            level = stack[-1]
            entry = next(level.entries, None)
            if entry is None:
                stack.pop()
                os.close(level.fd)
                if stack:
                    parent = stack[-1].fd
                    _attempt(problems, partial(os.rmdir, level.name, dir_fd=parent))
            elif not entry.is_dir(follow_symlinks=False):
                _attempt(problems, partial(os.unlink, entry.name, dir_fd=level.fd))
            elif len(stack) >= _MAX_DEPTH:
                # Too deep for one more descriptor: hoist it to the top for the next pass.
                hoisted += 1
                target = f".bs4env-hoisted-{hoisted}"
                move = partial(os.rename, entry.name, target, src_dir_fd=level.fd, dst_dir_fd=top)
                _attempt(problems, move)
            elif (child := _open_dir(entry.name, level.fd, problems)) is not None:
                stack.append(_Level(child, entry.name))
    finally:
        for level in stack:
            os.close(level.fd)
    return hoisted


def _open_dir(name: str, parent: int, problems: list[str]) -> int | None:
    try:
        mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
        if stat.S_IMODE(mode) & 0o700 != 0o700:
            os.chmod(name, 0o700, dir_fd=parent, follow_symlinks=False)
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except OSError as error:
        problems.append(f"cannot open directory {name!r}: {error}")
        return None


def _attempt(problems: list[str], action: Callable[[], object]) -> None:
    try:
        action()
    except OSError as error:
        problems.append(str(error))
