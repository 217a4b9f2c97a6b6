"""Per-call isolation, applied in the forked child before any model code runs.

Each call gets, where the machine allows it, its own mount and IPC namespaces (as root, or
through a user namespace without root): a fresh tmpfs capped in bytes and inodes is its temp
dir and SysV objects have nowhere to persist; both vanish with the call's last process, so no
cleanup walks what the call left. Where neither is possible the call's directory is read-only
to it. Then: a scrubbed environment, resource limits, an unprivileged uid (root) or no
capabilities (user namespace), no_new_privs, Landlock and the seccomp policy.

``decide_layers`` runs once per worker and says which of these hold here; ``apply_layers``
raises ``OSError`` when one reported active cannot be applied, so the call fails closed.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Callable

from bs4_env.sandbox import landlock, seccomp
from bs4_env.sandbox import syscalls as sc
from bs4_env.sandbox.isolation import SAFE_ENV, CallMode, Limits, WorkerSetup

_TMPFS_FLAGS = sc.MS_NOSUID | sc.MS_NODEV | sc.MS_NOEXEC


def decide_layers(setup: WorkerSetup, uid: int, limits: Limits, user_namespaces: bool) -> None:
    """Decide which per-call layers this kernel and privilege level can enforce."""
    setup.add("scrubbed-env", True, f"environment replaced by {sorted(SAFE_ENV)} + HOME/TMPDIR")
    setup.add("rlimits", True, "CPU, AS, NPROC, FSIZE, NOFILE, MEMLOCK=0, MSGQUEUE=0, CORE=0")
    if os.geteuid() == 0:
        setup.sandbox_uid = uid
        setup.add("uid-drop", True, f"model code runs as uid/gid {uid}, no groups")
        setup.call_mode = "root"
    else:
        setup.add("uid-drop", False, f"not root: code runs as uid {os.geteuid()}")
        setup.call_mode, why = _probe_user_namespace(setup.workdir, limits, user_namespaces)
    setup.add("no-new-privs", True, "PR_SET_NO_NEW_PRIVS before model code")
    setup.landlock_abi = landlock.abi_version()
    abi = setup.landlock_abi
    setup.add(
        "landlock",
        abi > 0,
        f"ABI {abi}: read-only stdlib/site-packages, temp dir only writable"
        + ("; TCP bind/connect denied" if abi >= 4 else "")
        + ("; signals and abstract sockets scoped to the call" if abi >= 6 else "")
        if abi
        else "Landlock not supported or disabled by this kernel",
    )
    setup.seccomp_ok, seccomp_why = seccomp.supported()
    if setup.seccomp_ok:
        seccomp.prepare()
    setup.add("seccomp", setup.seccomp_ok, seccomp_why)
    _report_call_layers(setup, limits, why if setup.call_mode == "none" else "")
    _prepare_template(setup, limits)


def _prepare_template(setup: WorkerSetup, limits: Limits) -> None:
    """Everything per-call layers need that is the same for every call, done once here.

    The template's own environment becomes exactly the calls' (nothing in the worker
    changes it afterwards), the fixed resource limits and Landlock rules are resolved.
    """
    os.environ.clear()
    os.environ.update({**SAFE_ENV, "HOME": setup.workdir, "TMPDIR": setup.workdir})
    setup.rlimits = [
        (resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes)),
        (resource.RLIMIT_NPROC, (limits.max_processes, limits.max_processes)),
        (resource.RLIMIT_FSIZE, (limits.max_file_bytes, limits.max_file_bytes)),
        (resource.RLIMIT_NOFILE, (limits.max_open_files, limits.max_open_files)),
        (resource.RLIMIT_CORE, (0, 0)),
        (resource.RLIMIT_MEMLOCK, (0, 0)),
        (resource.RLIMIT_MSGQUEUE, (0, 0)),
    ]
    if setup.landlock_abi:
        setup.landlock = _landlock_policy(setup)
    if setup.call_mode != "none":
        owner = (setup.sandbox_uid or 0) if setup.call_mode == "root" else os.getuid()
        setup.call_tmpfs = _tmpfs_mount(setup.workdir, owner, limits)
    # What a call's Landlock step adds to the fixed rules: its own /proc entry where the
    # host's /proc shows every process, its own tmpfs where it has one.
    setup.landlock_own_proc = not (setup.mount_namespace and setup.pid_namespace)
    setup.landlock_writable = [setup.workdir] if setup.call_mode != "none" else []


def _report_call_layers(setup: WorkerSetup, limits: Limits, no_ns_why: str) -> None:
    via = {"root": "as root", "userns": "through a user namespace"}.get(setup.call_mode, "")
    tmpfs = f"{limits.scratch_bytes >> 20} MiB, {limits.scratch_inodes} inodes"
    if via:
        setup.add("ipc-namespace", True, f"a new IPC namespace per call ({via})")
        setup.add("private-tmp", True, f"a fresh tmpfs per call ({tmpfs}), gone with the call")
        setup.add("temp-dir-caps", True, f"tmpfs caps: {tmpfs}; cleanup is the kernel's")
    else:
        setup.add("ipc-namespace", False, f"{no_ns_why}; SysV IPC is denied by seccomp instead")
        setup.add("private-tmp", True, "a private per-slot directory in this executor's temp root")
        setup.add(
            "temp-dir-caps",
            setup.landlock_abi > 0,
            f"no capped tmpfs here ({no_ns_why}): the call's directory is read-only to it"
            if setup.landlock_abi
            else f"no capped tmpfs ({no_ns_why}) and no Landlock: the directory is unbounded",
        )
    ok = setup.seccomp_ok
    setup.add(
        "call-memory-budget",
        ok,
        "bounded by construction, no per-call cgroup: one process per call (new processes "
        f"denied) x {limits.memory_bytes >> 20} MiB address space; no SysV/memfd memory; temp "
        "dir capped as above"
        if ok
        else "seccomp unavailable and no per-call cgroup: RLIMIT_AS bounds each process, not "
        "the whole call",
    )
    setup.add(
        "socket-denial",
        ok,
        "socket/socketpair of every family, connect, sendto, sendmsg, bind denied"
        if ok
        else "seccomp unavailable",
    )
    scoped = "; Landlock also scopes signals" if setup.landlock_abi >= 6 else ""
    setup.add(
        "pid-scoped-syscalls",
        ok,
        "kill/tgkill/prlimit64/setpriority/sched_set*/pidfd_open only on the call itself; "
        f"ptrace denied{scoped}"
        if ok
        else "seccomp unavailable",
    )


def _probe_user_namespace(workdir: str, limits: Limits, wanted: bool) -> tuple[CallMode, str]:
    """Try the user-namespace path once in a throwaway child; returns (mode, why not)."""
    if not wanted:
        return "none", "user namespaces turned off for this executor"
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            _enter_user_namespace()
            _mount_call_tmpfs(_tmpfs_mount(workdir, os.getuid(), limits))
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return "userns", ""
    return "none", "not root and no unprivileged user namespaces here"


def _enter_user_namespace() -> None:
    """A new user namespace (mapping only our own uid/gid) owning new mount and IPC ones."""
    uid, gid = os.getuid(), os.getgid()
    sc.unshare(sc.CLONE_NEWUSER | sc.CLONE_NEWNS | sc.CLONE_NEWIPC)
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                       ("gid_map", f"{gid} {gid} 1")):  # fmt: skip
        # Raw descriptors, not open(): no buffered file objects to build in every call.
        data = text.encode()
        fd = os.open(f"/proc/self/{name}", os.O_WRONLY | os.O_CLOEXEC)
        try:
            if os.write(fd, data) != len(data):  # the kernel takes a map in one write
                raise OSError(f"short write to /proc/self/{name}")
        finally:
            os.close(fd)


def _tmpfs_mount(workdir: str, owner: int, limits: Limits) -> sc.EncodedMount:
    """The ``mount`` arguments of a call's temp dir: a capped tmpfs owned by ``owner``."""
    options = (
        f"size={limits.scratch_bytes},nr_inodes={limits.scratch_inodes},mode=0700,"
        f"uid={owner},gid={owner}"
    )
    return b"tmpfs", os.fsencode(workdir), b"tmpfs", _TMPFS_FLAGS, options.encode()


def _mount_call_tmpfs(tmpfs: sc.EncodedMount, private: bool = False) -> None:
    """This call's temp dir: a capped tmpfs in its own (already unshared) mount namespace."""
    if not private:
        # Private first, so the mount can never propagate back to the worker or the host
        # (a copy of the worker's own namespace, made private at its start, already is).
        sc.mount_encoded(None, b"/", None, sc.MS_REC | sc.MS_PRIVATE, None)
    sc.mount_encoded(*tmpfs)


def _call_namespaces(setup: WorkerSetup, timeout_s: float, limits: Limits) -> None:
    """ipc-namespace, private-tmp, temp-dir-caps: new mount and IPC namespaces, a capped tmpfs."""
    if setup.call_tmpfs is None:
        return
    if setup.call_mode == "root":
        sc.unshare(sc.CLONE_NEWNS | sc.CLONE_NEWIPC)
        _mount_call_tmpfs(setup.call_tmpfs, setup.mount_namespace)
    else:
        _enter_user_namespace()
        _mount_call_tmpfs(setup.call_tmpfs)


def _scrubbed_env(setup: WorkerSetup, timeout_s: float, limits: Limits) -> None:
    """The environment itself was scrubbed in the template (``_prepare_template``)."""
    os.chdir(setup.workdir)


def _rlimits(setup: WorkerSetup, timeout_s: float, limits: Limits) -> None:
    cpu = int(timeout_s) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    for which, value in setup.rlimits:
        resource.setrlimit(which, value)


def _uid_drop(setup: WorkerSetup, timeout_s: float, limits: Limits) -> None:
    if setup.sandbox_uid is not None:
        uid = setup.sandbox_uid
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)  # all ids leave 0: the kernel clears every capability
    elif setup.call_mode == "userns":
        sc.drop_capabilities()  # the namespace's creator holds them all, whatever its uid


def _no_new_privs(setup: WorkerSetup, timeout_s: float, limits: Limits) -> None:
    sc.prctl(sc.PR_SET_NO_NEW_PRIVS, 1)


def _landlock(setup: WorkerSetup, timeout_s: float, limits: Limits) -> None:
    if setup.landlock is None:
        return
    # Our own /proc shows only the worker's PID namespace; the host's shows every
    # process (command lines included), so there a call may read only its own entry.
    # The call's own tmpfs is mounted over its directory: only the call can name it.
    setup.landlock.restrict(
        [f"/proc/{os.getpid()}"] if setup.landlock_own_proc else [], setup.landlock_writable
    )


def _landlock_policy(setup: WorkerSetup) -> landlock.Policy:
    """The fixed part of every call's Landlock rules, resolved once in the template."""
    writable = setup.call_mode != "none"
    own_proc = setup.mount_namespace and setup.pid_namespace
    return landlock.Policy(
        [*setup.read_paths, *(["/proc"] if own_proc else []), "/dev/zero", "/dev/urandom",
         *([] if writable else [setup.workdir])],
        ["/dev/null"],
        setup.landlock_abi,
    )  # fmt: skip


def _seccomp(setup: WorkerSetup, timeout_s: float, limits: Limits) -> None:
    if setup.seccomp_ok:
        seccomp.install(os.getpid())


Step = Callable[[WorkerSetup, float, Limits], None]
# In this order (no_new_privs before Landlock and seccomp, the uid change after the mounts);
# each is named by the layer it enforces, so the benchmark can price them one by one.
STEPS: tuple[tuple[str, Step], ...] = (
    ("call namespaces + tmpfs", _call_namespaces),
    ("scrubbed-env", _scrubbed_env),
    ("rlimits", _rlimits),
    ("uid-drop", _uid_drop),
    ("no-new-privs", _no_new_privs),
    ("landlock", _landlock),
    ("seccomp", _seccomp),
)


def apply_layers(setup: WorkerSetup, timeout_s: float, limits: Limits) -> None:
    """In the forked child, before model code: everything that must hold per call."""
    for _, step in STEPS:
        step(setup, timeout_s, limits)
