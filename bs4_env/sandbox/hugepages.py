"""Back the warm template's anonymous memory with huge pages, so that each call forks cheaply.

Every call forks the template, and the kernel's cost of that fork (copying page tables,
taking a reference on every page) and of the child's exit grows with the number of 4 KiB
pages the template maps. ``MADV_COLLAPSE`` (Linux >= 6.1) gathers each fully mapped 2 MiB
stretch of the template's heap into one huge page, once, after warming; the kernel then copies
and releases such a stretch as one folio. A child that writes to it still copies only the 4 KiB
it touches. This is a cost measure, not an isolation layer: where the kernel refuses (older
kernels, THP set to ``never``), nothing changes but the cost, and the worker reports how many
bytes it collapsed.
"""

from __future__ import annotations

import ctypes
import errno

_MADV_COLLAPSE = 25
HUGE_PAGE = 2 << 20

_libc = ctypes.CDLL(None, use_errno=True)
_libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.madvise.restype = ctypes.c_int


def anonymous_ranges(maps: str) -> list[tuple[int, int]]:
    """The private anonymous read-write mappings (heap and unnamed) of a ``/proc/*/maps`` text."""
    ranges = []
    for line in maps.splitlines():
        fields = line.split()
        named = len(fields) > 5
        if not fields[1].startswith("rw") or fields[1][3] != "p":
            continue
        if named and fields[5] != "[heap]":
            continue
        low, high = (int(bound, 16) for bound in fields[0].split("-"))
        ranges.append((low, high))
    return ranges


def aligned_chunks(low: int, high: int) -> list[int]:
    """Start addresses of the whole, aligned huge pages inside ``[low, high)``."""
    first = -(-low // HUGE_PAGE) * HUGE_PAGE
    return list(range(first, high - HUGE_PAGE + 1, HUGE_PAGE))


def collapse_heap() -> tuple[int, str]:
    """Collapse this process's anonymous memory into huge pages where the kernel agrees.

    Returns (bytes collapsed, the kernel's answers where it declined: ``EINVAL`` where the
    kernel has no ``MADV_COLLAPSE`` or THP is off, ``EAGAIN``/``ENOMEM`` where no huge page
    was free or a range went away meanwhile).
    """
    with open("/proc/self/maps") as handle:
        maps = handle.read()
    collapsed, declined = 0, set()
    for low, high in anonymous_ranges(maps):
        for start in aligned_chunks(low, high):
            if _libc.madvise(start, HUGE_PAGE, _MADV_COLLAPSE) == 0:
                collapsed += HUGE_PAGE
            else:
                declined.add(errno.errorcode.get(ctypes.get_errno(), "?"))
    return collapsed, ", ".join(sorted(declined))
