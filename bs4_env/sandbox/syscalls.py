"""Thin ctypes wrappers for the Linux calls Python 3.11 lacks (unshare, mount, prctl, capset),
and a ``fork`` without Python's at-fork hooks.

``os.unshare`` only exists from Python 3.12, and ``mount``/``prctl``/``capset`` never did; the
sandbox needs them before any model code runs, so they go straight to libc.
"""

from __future__ import annotations

import ctypes
import os
from errno import ESRCH
from typing import NoReturn

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWCGROUP = 0x02000000
CLONE_THREAD = 0x00010000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_MOVE = 8192
MS_REC = 16384
MS_PRIVATE = 1 << 18
MNT_DETACH = 2

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
PR_GET_NO_NEW_PRIVS = 39

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.prctl.argtypes = [
    ctypes.c_int,
    ctypes.c_ulong,
    ctypes.c_ulong,
    ctypes.c_ulong,
    ctypes.c_ulong,
]
_libc.mount.argtypes = [
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_ulong,
    ctypes.c_char_p,
]
_libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
_libc.unshare.argtypes = [ctypes.c_int]
_libc.kill.argtypes = [ctypes.c_int, ctypes.c_int]
_CAPABILITY_VERSION_3 = 0x20080522
# PyDLL, not CDLL: the GIL stays held across the call, so the child starts holding it exactly
# as the parent did (CDLL would release it around fork()).
_fork = ctypes.PyDLL(None, use_errno=True).fork
_fork.restype = ctypes.c_int
_fork.argtypes = []


class _CapHeader(ctypes.Structure):
    _fields_ = (("version", ctypes.c_uint32), ("pid", ctypes.c_int))


class _CapData(ctypes.Structure):
    _fields_ = (
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    )


# capset's arguments, built once (at import, in the template): a call that builds a Structure
# and an array type's instance copies the pages ctypes touches doing so (~90 per call).
_CAP_HEADER = _CapHeader(_CAPABILITY_VERSION_3, 0)  # pid 0: this thread
_CAP_NONE = (_CapData * 2)()  # version 3 carries two 32-bit words per set, all zero here
_libc.capset.argtypes = [ctypes.POINTER(_CapHeader), ctypes.POINTER(_CapData)]


def _fail(what: str) -> NoReturn:
    """Raise ``OSError`` for the failed call ``what`` (its message is built only here: these
    wrappers run in every call's process, where each object made copies a page)."""
    errno = ctypes.get_errno()
    raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _b(value: str | None) -> bytes | None:
    return None if value is None else os.fsencode(value)


def unshare(flags: int) -> None:
    """Move this process into new namespaces (``unshare(2)``)."""
    if _libc.unshare(flags) < 0:
        _fail(f"unshare({flags:#x})")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str = "") -> None:
    """``mount(2)``; raises ``OSError`` naming the target on failure."""
    mount_encoded(_b(source), os.fsencode(target), _b(fstype), flags, _b(data) if data else None)


EncodedMount = tuple[bytes | None, bytes, bytes | None, int, bytes | None]
"""``mount``'s arguments, encoded: source, target, file system type, flags, options."""


def mount_encoded(
    source: bytes | None, target: bytes, fstype: bytes | None, flags: int, data: bytes | None
) -> None:
    """``mount`` with every argument already encoded (a call's own mount, prepared once)."""
    if _libc.mount(source, target, fstype, flags, data) < 0:
        _fail(f"mount {os.fsdecode(target)}")


def umount(target: str) -> None:
    """Lazily detach a mount (``umount2(MNT_DETACH)``)."""
    if _libc.umount2(_b(target), MNT_DETACH) < 0:
        _fail(f"umount {target}")


def drop_capabilities() -> None:
    """Clear this thread's effective, permitted and inheritable capability sets (``capset``).

    Needed where a uid change does not clear them: the creator of a user namespace holds every
    capability inside it whatever its uid.
    """
    if _libc.capset(_CAP_HEADER, _CAP_NONE) < 0:
        _fail("capset")


def prctl(option: int, arg2: int = 0, arg3: int = 0, arg4: int = 0, arg5: int = 0) -> int:
    """``prctl(2)``."""
    result: int = _libc.prctl(option, arg2, arg3, arg4, arg5)
    if result < 0:
        _fail(f"prctl({option})")
    return result


def syscall(number: int, *args: int) -> int:
    """A raw system call; raises ``OSError`` on a negative result."""
    # Variadic: without explicit c_long every int would be passed as a 32-bit int, which
    # truncates pointers.
    result: int = _libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
    if result < 0:
        _fail(f"syscall({number})")
    return result


def signal_any(pid: int, sig: int) -> bool:
    """``kill(2)``; False where no process matched (``ESRCH``), without raising.

    ``os.kill`` reports that as ``ProcessLookupError``, which the worker met after every
    call (its namespace is usually empty by then): building and catching it wrote pages.
    """
    if _libc.kill(pid, sig) == 0:
        return True
    errno = ctypes.get_errno()
    if errno == ESRCH:
        return False
    raise OSError(errno, f"kill({pid}, {sig}): {os.strerror(errno)}")


def threads() -> int:
    """How many threads this process has (``Threads:`` of ``/proc/self/status``)."""
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    raise OSError("no Threads: line in /proc/self/status")


def fork_bare() -> int:
    """``fork(2)`` straight from libc: like ``os.fork`` minus Python's at-fork machinery.

    ``os.fork`` runs ``PyOS_AfterFork_Child`` and every hook registered with
    ``os.register_at_fork`` (in the warm template: threading's, logging's and random's). Their
    job is to repair state that *other threads* held at the fork (locks, the GIL, thread
    records); they run Python code in the child, which writes (copy-on-write) some 170 of the
    parent's pages per call. Only for a process with exactly one thread, whose GIL, locks and
    thread records are then already consistent: the caller checks that once
    (``threads() == 1``) and starts no thread afterwards. ``random`` is not reseeded: a child
    that needs fresh randomness seeds it itself. Returns 0 in the child, its pid in the parent.
    """
    pid: int = _fork()
    if pid < 0:
        _fail("fork")
    return pid
