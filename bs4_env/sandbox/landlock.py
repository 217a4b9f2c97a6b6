"""Landlock (Linux >= 5.13) filesystem, TCP and scope restriction through raw syscalls.

Landlock is an allow-list enforced by the kernel on the calling process and everything it
later spawns: model code may read the interpreter and its libraries, read and write its own
temp directory, and nothing else; on ABI >= 4 it may not bind or connect TCP sockets, and on
ABI >= 6 it may not signal processes or reach abstract Unix sockets outside its domain.
"""

from __future__ import annotations

import ctypes
import fcntl
import os

from bs4_env.sandbox.syscalls import syscall

_CREATE_RULESET = 444  # the same number on every architecture (generic syscall table)
_ADD_RULE = 445
_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1, 2, 4, 8
_ABI1_ALL = (1 << 13) - 1
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | _TRUNCATE | _IOCTL_DEV
_NET_ALL = 1 | 2  # BIND_TCP | CONNECT_TCP
_SCOPE_ALL = 1 | 2  # ABSTRACT_UNIX_SOCKET | SIGNAL
READ_RIGHTS = EXECUTE | READ_FILE | READ_DIR


class _RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel struct is __attribute__((packed))
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def abi_version() -> int:
    """The kernel's Landlock ABI version, or 0 when Landlock is unavailable or disabled."""
    try:
        return syscall(_CREATE_RULESET, 0, 0, _CREATE_RULESET_VERSION)
    except OSError:
        return 0


def _handled_fs(abi: int) -> int:
    rights = _ABI1_ALL
    if abi >= 2:
        rights |= _REFER
    if abi >= 3:
        rights |= _TRUNCATE
    if abi >= 5:
        rights |= _IOCTL_DEV
    return rights


# The prepared rules' descriptors sit in one block from here: below a call's RLIMIT_NOFILE,
# above the descriptors a worker and its calls use, so a call can close everything else.
FD_BASE = 200


class Policy:
    """A Landlock policy prepared once (in the warm template): the ruleset's attributes and
    the fixed rules, each path opened (``O_PATH``, in ``fds``) with its rights fitted to its
    type. A call adds the paths only it knows (its own temp dir, its own /proc entry) and
    restricts itself, without resolving or opening the fixed paths again."""

    def __init__(self, read_paths: list[str], write_paths: list[str], abi: int) -> None:
        if abi < 1:
            raise OSError("landlock unavailable")
        self.handled = _handled_fs(abi)
        self.attr = _RulesetAttr(
            self.handled, _NET_ALL if abi >= 4 else 0, _SCOPE_ALL if abi >= 6 else 0
        )
        self.attr_size = 8 if abi < 4 else (16 if abi < 6 else 24)
        self.attr_address = ctypes.addressof(self.attr)
        rules = _fitted_rules(read_paths, write_paths, self.handled)
        self.fds = range(FD_BASE, FD_BASE + len(rules))
        self.rules = [
            _PathBeneathAttr(rights, _open_at(path, fd))
            for (path, rights), fd in zip(rules, self.fds, strict=True)
        ]
        self.rule_addresses = [ctypes.addressof(rule) for rule in self.rules]

    def restrict(self, read_paths: list[str], write_paths: list[str]) -> None:
        """Confine this process to the fixed rules plus ``read_paths`` and ``write_paths``.

        Once per process (a forked call): it closes this process's copies of ``fds``. Paths
        that do not exist are skipped. Requires no_new_privs or CAP_SYS_ADMIN. Raises
        ``OSError`` when the kernel refuses.
        """
        try:
            ruleset_fd = syscall(_CREATE_RULESET, self.attr_address, self.attr_size, 0)
            try:
                for address in self.rule_addresses:
                    syscall(_ADD_RULE, ruleset_fd, _RULE_PATH_BENEATH, address, 0)
                for path in read_paths:
                    _add_path_rule(ruleset_fd, path, READ_RIGHTS)
                for path in write_paths:
                    _add_path_rule(ruleset_fd, path, self.handled)
                syscall(_RESTRICT_SELF, ruleset_fd, 0)
            finally:
                os.close(ruleset_fd)
        finally:
            os.closerange(self.fds.start, self.fds.stop)


def _open_at(path: str, target: int) -> int:
    """``path`` opened ``O_PATH`` at exactly descriptor ``target`` (which must be free)."""
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        placed = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, target)
    finally:
        os.close(fd)
    if placed != target:
        os.close(placed)
        raise OSError(f"descriptor {target} is taken: cannot prepare the Landlock rules")
    return placed


def _fitted_rules(
    read_paths: list[str], write_paths: list[str], handled: int
) -> list[tuple[str, int]]:
    """(path, rights) for the paths that exist, rights fitted to each path's type."""
    rules = []
    wanted = [(p, READ_RIGHTS) for p in read_paths] + [(p, handled) for p in write_paths]
    for path, rights in wanted:
        if os.path.exists(path):
            # Non-directory rules may only carry file rights; the kernel rejects the rest.
            rules.append((path, rights if os.path.isdir(path) else rights & _FILE_ONLY))
    return rules


def _add_path_rule(ruleset_fd: int, path: str, rights: int) -> None:
    """Allow ``rights`` beneath ``path``, fitted to its type; a path that is gone is skipped.

    One ``open`` for a directory (a call's own paths are), no ``stat``: this runs in every
    call's process, where each object made copies a page.
    """
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC | os.O_DIRECTORY)
    except NotADirectoryError:
        rights &= _FILE_ONLY  # non-directory rules may only carry file rights
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except FileNotFoundError:
            return
    except FileNotFoundError:
        return
    try:
        rule = _PathBeneathAttr(rights, fd)
        syscall(_ADD_RULE, ruleset_fd, _RULE_PATH_BENEATH, ctypes.addressof(rule), 0)
    finally:
        os.close(fd)
