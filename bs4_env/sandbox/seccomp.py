"""A seccomp-BPF deny-list for model code, built by hand (no libseccomp dependency).

Defense in depth beneath the namespaces and Landlock: socket creation, namespace and mount
calls, ptrace and cross-process memory access, kernel keyrings, io_uring (which can bypass
per-syscall filters), BPF, module loading and identity changes all fail with EPERM; clone()
with namespace flags is refused and clone3() answers ENOSYS so libc falls back to clone().
Only x86_64 syscall numbers are encoded; other architectures report the layer inactive.
"""

from __future__ import annotations

import ctypes
import errno
import platform

from bs4_env.sandbox.syscalls import (
    CLONE_NEWCGROUP,
    CLONE_NEWIPC,
    CLONE_NEWNET,
    CLONE_NEWNS,
    CLONE_NEWPID,
    CLONE_NEWUSER,
    CLONE_NEWUTS,
    PR_SET_SECCOMP,
    prctl,
)

_AUDIT_ARCH_X86_64 = 0xC000003E
_X32_BIT = 0x40000000
_SECCOMP_MODE_FILTER = 2
_RET_ALLOW = 0x7FFF0000
_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_LD_W_ABS, _JEQ_K, _JGE_K, _JSET_K, _RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_NR_CLONE, _NR_CLONE3 = 56, 435
_NAMESPACE_FLAGS = (
    CLONE_NEWNS
    | CLONE_NEWUTS
    | CLONE_NEWIPC
    | CLONE_NEWUSER
    | CLONE_NEWPID
    | CLONE_NEWNET
    | CLONE_NEWCGROUP
)

DENIED_X86_64: dict[str, int] = {
    "socket": 41, "ptrace": 101, "setuid": 105, "setgid": 106, "setreuid": 113,
    "setregid": 114, "setgroups": 116, "setresuid": 117, "setresgid": 119, "setfsuid": 122,
    "setfsgid": 123, "personality": 135, "pivot_root": 155, "chroot": 161, "acct": 163,
    "mount": 165, "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169,
    "sethostname": 170, "setdomainname": 171, "iopl": 172, "ioperm": 173, "init_module": 175,
    "delete_module": 176, "quotactl": 179, "kexec_load": 246, "add_key": 248,
    "request_key": 249, "keyctl": 250, "unshare": 272, "perf_event_open": 298,
    "name_to_handle_at": 303, "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310,
    "process_vm_writev": 311, "kcmp": 312, "finit_module": 313, "kexec_file_load": 320,
    "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
    "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438, "mount_setattr": 442,
}  # fmt: skip


class _SockFilter(ctypes.Structure):
    _fields_ = (
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    )


class _SockFprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter)))


def supported() -> tuple[bool, str]:
    """Whether this filter can be installed here, and why not."""
    machine = platform.machine()
    if machine != "x86_64":
        return False, f"no syscall table for {machine}"
    return True, f"x86_64 deny-list of {len(DENIED_X86_64)} syscalls"


def _program() -> list[tuple[int, int, int, int]]:
    eperm = _RET_ERRNO | errno.EPERM
    prog: list[tuple[int, int, int, int]] = [
        (_LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        (_JEQ_K, 1, 0, _AUDIT_ARCH_X86_64),
        (_RET_K, 0, 0, _RET_KILL_PROCESS),  # a foreign ABI (int 0x80) must not slip past
        (_LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
        (_JGE_K, 0, 1, _X32_BIT),
        (_RET_K, 0, 0, eperm),
        (_JEQ_K, 0, 1, _NR_CLONE3),
        (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS),  # libc then falls back to clone()
        (_JEQ_K, 0, 3, _NR_CLONE),
        (_LD_W_ABS, 0, 0, 16),  # low half of args[0]: the clone flags
        (_JSET_K, 0, 1, _NAMESPACE_FLAGS),
        (_RET_K, 0, 0, eperm),
    ]
    # After the clone branch the accumulator may hold clone flags; reload the number.
    prog.append((_LD_W_ABS, 0, 0, 0))
    for number in DENIED_X86_64.values():
        prog.append((_JEQ_K, 0, 1, number))
        prog.append((_RET_K, 0, 0, eperm))
    prog.append((_RET_K, 0, 0, _RET_ALLOW))
    return prog


def install() -> None:
    """Install the filter on this thread (and its future children). Needs no_new_privs."""
    ok, why = supported()
    if not ok:
        raise OSError(why)
    prog = _program()
    filters = (_SockFilter * len(prog))(*[_SockFilter(*ins) for ins in prog])
    fprog = _SockFprog(len(prog), ctypes.cast(filters, ctypes.POINTER(_SockFilter)))
    prctl(PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(fprog))
