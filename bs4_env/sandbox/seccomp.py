"""The seccomp-BPF policy for model code, built by hand (no libseccomp dependency).

Defense in depth beneath the namespaces and Landlock, the same in every mode (root or not):

* no sockets of any family (``socket``, ``socketpair``) and nothing that would use one
  (``connect``, ``sendto``, ``sendmsg``, ``bind``, ...), so no datagram reaches a host path;
* no SysV IPC or POSIX message queues, so nothing a call stores there can outlive it or be
  read by the next call, and no ``memfd`` (memory outside the address-space limit);
* no new processes: ``fork``/``vfork`` and ``clone`` without ``CLONE_THREAD`` fail, so a call
  is one process (threads allowed) and ``RLIMIT_AS`` bounds the memory of the whole call;
* signals, resource limits, priorities, affinity and scheduling only for the call itself:
  ``kill``, ``tgkill``, ``prlimit64``, ``setpriority``, ``sched_setaffinity`` ... on any other
  pid fail (the call's pid is compiled into the filter);
* namespaces, mounts, ptrace and cross-process memory access, keyrings, io_uring (which
  bypasses per-syscall filters), BPF, module loading, identity changes and the kernel log.

Denied calls fail with EPERM; ``clone3`` answers ENOSYS so libc falls back to ``clone``, whose
flags the filter can inspect. Only x86_64 numbers are encoded; elsewhere the layer reports
itself inactive.
"""

from __future__ import annotations

import ctypes
import errno
import platform

from bs4_env.sandbox.bpf import JEQ_K, JGE_K, JSET_K, Instruction, Program
from bs4_env.sandbox.syscalls import (
    CLONE_NEWCGROUP,
    CLONE_NEWIPC,
    CLONE_NEWNET,
    CLONE_NEWNS,
    CLONE_NEWPID,
    CLONE_NEWUSER,
    CLONE_NEWUTS,
    CLONE_THREAD,
    PR_SET_SECCOMP,
    prctl,
)

_AUDIT_ARCH_X86_64 = 0xC000003E
_X32_BIT = 0x40000000
_SECCOMP_MODE_FILTER = 2
_RET_ALLOW = 0x7FFF0000
_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_NR, _ARCH = 0, 4  # offsets in struct seccomp_data


def _arg(index: int) -> int:
    """Offset of the low 32 bits of argument ``index`` (pids and flags are C ints)."""
    return 16 + 8 * index


_NAMESPACE_FLAGS = (
    CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET
    | CLONE_NEWCGROUP
)  # fmt: skip
# Placeholders in the assembled template, replaced by the call's own pid (and its negation,
# the process group) when the filter is installed.
_SELF, _SELF_GROUP = 0xFFFFFF01, 0xFFFFFF02

DENIED_X86_64: dict[str, int] = {
    # sockets
    "socket": 41, "connect": 42, "accept": 43, "sendto": 44, "sendmsg": 46, "bind": 49,
    "listen": 50, "socketpair": 53, "accept4": 288, "sendmmsg": 307,
    # SysV IPC, POSIX message queues, memory outside the address space
    "shmget": 29, "shmat": 30, "shmctl": 31, "semget": 64, "semop": 65, "semctl": 66,
    "shmdt": 67, "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "semtimedop": 220,
    "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242, "mq_timedreceive": 243,
    "mq_notify": 244, "mq_getsetattr": 245, "memfd_create": 319, "memfd_secret": 447,
    # new processes (clone is filtered by its flags below)
    "fork": 57, "vfork": 58,
    # other processes
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
    "pidfd_getfd": 438, "pidfd_send_signal": 424, "process_madvise": 440,
    "process_mrelease": 448, "ioprio_set": 251, "migrate_pages": 256, "move_pages": 279,
    # identity, namespaces, mounts, the kernel
    "setuid": 105, "setgid": 106, "setreuid": 113, "setregid": 114, "setgroups": 116,
    "setresuid": 117, "setresgid": 119, "setfsuid": 122, "setfsgid": 123, "personality": 135,
    "pivot_root": 155, "chroot": 161, "acct": 163, "mount": 165, "umount2": 166,
    "swapon": 167, "swapoff": 168, "reboot": 169, "sethostname": 170, "setdomainname": 171,
    "iopl": 172, "ioperm": 173, "init_module": 175, "delete_module": 176, "quotactl": 179,
    "syslog": 103, "kexec_load": 246, "add_key": 248, "request_key": 249, "keyctl": 250,
    "unshare": 272, "perf_event_open": 298, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "setns": 308, "finit_module": 313, "kexec_file_load": 320,
    "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
    "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
}  # fmt: skip
# Allowed only when their first argument is the call itself (0 means "self" for these).
SELF_OR_ZERO_X86_64: dict[str, int] = {
    "prlimit64": 302, "sched_setaffinity": 203, "sched_setscheduler": 144,
    "sched_setparam": 142, "sched_setattr": 314,
}  # fmt: skip
SELF_ONLY_X86_64: dict[str, int] = {
    "tgkill": 234, "tkill": 200, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
    "pidfd_open": 434,
}  # fmt: skip
_NR_KILL, _NR_SETPRIORITY, _NR_CLONE, _NR_CLONE3 = 62, 141, 56, 435
_PRIO_PROCESS = 0


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
    scoped = len(SELF_OR_ZERO_X86_64) + len(SELF_ONLY_X86_64) + 2
    return True, (
        f"x86_64: {len(DENIED_X86_64)} syscalls denied, {scoped} limited to the call's own pid, "
        "clone only for threads"
    )


# Syscall numbers a call may not use freely, and where the filter sends each.
_SPECIAL: dict[int, str] = {
    **dict.fromkeys(DENIED_X86_64.values(), "eperm"),
    _NR_CLONE3: "enosys", _NR_CLONE: "clone", _NR_KILL: "kill_pid",
    _NR_SETPRIORITY: "setpriority",
    **dict.fromkeys(SELF_OR_ZERO_X86_64.values(), "self_or_zero"),
    **dict.fromkeys(SELF_ONLY_X86_64.values(), "self_only"),
}  # fmt: skip
if len(_SPECIAL) != len(DENIED_X86_64) + len(SELF_OR_ZERO_X86_64) + len(SELF_ONLY_X86_64) + 4:
    raise RuntimeError("a syscall number is listed twice in the seccomp policy")
# Leaves of the number search compare this many numbers one by one.
_LEAF = 4


def _dispatch(prog: Program, numbers: list[int], name: str) -> None:
    """Send the loaded syscall number to its ``_SPECIAL`` label, or allow it.

    A binary search over the sorted numbers, not one comparison per number: a system call
    takes ~8 comparisons instead of up to ~110, and so does the kernel when it works out,
    for every syscall number at each install, which ones the filter always allows (that
    per-call cost grew with the number of comparisons).
    """
    if len(numbers) <= _LEAF:
        for number in numbers:
            prog.jump(JEQ_K, number, true=_SPECIAL[number])
        prog.ret(_RET_ALLOW)
        return
    middle = len(numbers) // 2
    prog.jump(JGE_K, numbers[middle], true=f"{name}h")
    _dispatch(prog, numbers[:middle], f"{name}l")
    prog.label(f"{name}h")
    _dispatch(prog, numbers[middle:], f"{name}h")


def _policy() -> Program:
    prog = Program()
    prog.load(_ARCH)
    prog.jump(JEQ_K, _AUDIT_ARCH_X86_64, false="kill")  # a foreign ABI must not slip past
    prog.load(_NR)
    prog.jump(JGE_K, _X32_BIT, true="eperm")
    _dispatch(prog, sorted(_SPECIAL), "n")

    prog.label("clone")
    prog.load(_arg(0))
    prog.jump(JSET_K, _NAMESPACE_FLAGS, true="eperm")
    prog.jump(JSET_K, CLONE_THREAD, true="allow", false="eperm")

    prog.label("kill_pid")  # kill(pid): itself, its own group (0 or -pid)
    prog.load(_arg(0))
    prog.jump(JEQ_K, _SELF_GROUP, true="allow")
    prog.jump(JEQ_K, 0, true="allow")
    prog.jump(JEQ_K, _SELF, true="allow", false="eperm")

    prog.label("setpriority")  # setpriority(which, who, prio): PRIO_PROCESS of itself only
    prog.load(_arg(0))
    prog.jump(JEQ_K, _PRIO_PROCESS, false="eperm")
    prog.load(_arg(1))
    prog.jump(JEQ_K, 0, true="allow")
    prog.jump(JEQ_K, _SELF, true="allow", false="eperm")

    prog.label("self_or_zero")
    prog.load(_arg(0))
    prog.jump(JEQ_K, 0, true="allow")
    prog.label("self_only")
    prog.load(_arg(0))
    prog.jump(JEQ_K, _SELF, true="allow", false="eperm")

    prog.label("allow")
    prog.ret(_RET_ALLOW)
    prog.label("eperm")
    prog.ret(_RET_ERRNO | errno.EPERM)
    prog.label("enosys")
    prog.ret(_RET_ERRNO | errno.ENOSYS)
    prog.label("kill")
    prog.ret(_RET_KILL_PROCESS)
    return prog


_POLICY = _policy()


class _Prepared:
    """The assembled filter as a ctypes array, built once (in the template, before any fork);
    a call only patches its pid into the few instructions that compare against it."""

    def __init__(self) -> None:
        template = _POLICY.assemble()
        self.filters = (_SockFilter * len(template))(*[_SockFilter(*ins) for ins in template])
        self.self_at = [i for i, ins in enumerate(template) if ins[3] == _SELF]
        self.group_at = [i for i, ins in enumerate(template) if ins[3] == _SELF_GROUP]
        # Views of the instructions a call patches, made once (each index makes a new one).
        self.self_items = [self.filters[i] for i in self.self_at]
        self.group_items = [self.filters[i] for i in self.group_at]
        pointer = ctypes.cast(self.filters, ctypes.POINTER(_SockFilter))
        self.fprog = _SockFprog(len(template), pointer)

    def patch(self, pid: int) -> None:
        for item in self.self_items:
            item.k = pid
        group = (-pid) & 0xFFFFFFFF
        for item in self.group_items:
            item.k = group


_prepared: list[_Prepared] = []


def _check_pid(pid: int) -> None:
    if not 0 < pid < _SELF:
        raise ValueError(f"implausible pid {pid}")


def program_for(pid: int) -> list[Instruction]:
    """The filter for the call whose process is ``pid`` (as this pid namespace numbers it)."""
    _check_pid(pid)
    return _POLICY.assemble({_SELF: pid, _SELF_GROUP: (-pid) & 0xFFFFFFFF})


def prepare() -> None:
    """Build the filter's array now, so that ``install`` in each call only patches it."""
    ok, why = supported()
    if not ok:
        raise OSError(why)
    if not _prepared:
        _prepared.append(_Prepared())


def install(pid: int) -> None:
    """Install the filter for the call ``pid`` on this thread and all it later starts.

    Needs no_new_privs and ``prepare()`` first (where ``supported()``). Raises ``OSError``
    where the filter was not prepared or is refused.
    """
    if not _prepared:
        raise OSError("seccomp filter not prepared (unsupported here?)")
    _check_pid(pid)
    prepared = _prepared[0]
    prepared.patch(pid)
    prctl(PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(prepared.fprog))
