"""Isolation layers: once per warm worker (namespaces, mounts) and per call (the rest).

Worker level, as root: new PID, network, mount, IPC and UTS namespaces; a fresh /proc that
only shows the worker's own namespace; tmpfs over the host's secrets (home directories, the
project tree, dataset caches, shared temp dirs) with the interpreter and site-packages bound
back read-only; a private scratch /tmp. Per call, in the forked child before model code
runs: a scrubbed environment, resource limits, an unprivileged uid/gid, no_new_privs,
Landlock and seccomp. Every layer reports whether it is active and why not.
"""

from __future__ import annotations

import os
import resource
import site
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bs4_env.sandbox import landlock, seccomp
from bs4_env.sandbox import syscalls as sc

PROJECT_ROOT = str(Path(__file__).resolve().parents[2])
HIDDEN_PATHS = (
    "/root", "/home", "/work", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run", "/mnt",
    "/media", "/srv", "/opt", "/farm", "/old_root", "/var/lib", "/var/log", "/var/cache",
    "/var/mail", "/var/spool", "/var/backups", "/boot", PROJECT_ROOT, str(Path.home()),
)  # fmt: skip
# Our own packages hold the task generators (and so the truth): hide them even when they are
# installed inside a site-packages directory that model code may otherwise read.
PACKAGE_DIRS = tuple(
    str(Path(__file__).resolve().parents[2] / name) for name in ("bs4_env", "beautiful_soup_env")
)
SCRATCH = "/tmp"
SAFE_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}


@dataclass(frozen=True)
class LayerStatus:
    """One isolation layer: is it active here, and the evidence or the reason it is not."""

    name: str
    active: bool
    detail: str


@dataclass(frozen=True)
class Limits:
    """Per-call resource limits applied with ``setrlimit`` in the child."""

    memory_bytes: int = 1 << 30
    max_processes: int = 64
    max_file_bytes: int = 16 << 20
    max_open_files: int = 256
    scratch_bytes: int = 64 << 20


@dataclass
class WorkerSetup:
    """What the worker managed to set up; the per-call child applies the rest."""

    layers: list[LayerStatus] = field(default_factory=list)
    pid_namespace: bool = False
    sandbox_uid: int | None = None
    landlock_abi: int = 0
    seccomp_ok: bool = False
    read_paths: list[str] = field(default_factory=list)

    def add(self, name: str, active: bool, detail: str) -> bool:
        self.layers.append(LayerStatus(name, active, detail))
        return active


def keep_paths() -> list[str]:
    """Directories model code may read: the interpreter's stdlib and site-packages."""
    # Not sys.prefix: a venv root may sit inside the project; only its site-packages matter.
    paths = [sys.base_prefix, *site.getsitepackages()]
    return sorted({os.path.realpath(p) for p in paths if os.path.isdir(p)})


def enter_namespaces(setup: WorkerSetup) -> None:
    """Unshare namespaces in the worker's outer process; the next fork is PID 1 inside."""
    if os.geteuid() != 0:
        setup.add("namespaces", False, "not root: no PID/net/mount namespaces")
        return
    flags = sc.CLONE_NEWNS | sc.CLONE_NEWNET | sc.CLONE_NEWIPC | sc.CLONE_NEWUTS
    try:
        sc.unshare(flags)
        setup.add("network-namespace", True, "new netns: no interfaces, loopback down")
    except OSError as error:
        setup.add("network-namespace", False, str(error))
    try:
        sc.unshare(sc.CLONE_NEWPID)
        setup.pid_namespace = True
        setup.add("pid-namespace", True, "calls run in a PID namespace; all killed after each")
    except OSError as error:
        setup.add("pid-namespace", False, f"{error}; falling back to process groups")


def setup_filesystem(setup: WorkerSetup) -> None:
    """In the worker (PID 1 of its namespace): fresh /proc, hidden secrets, private /tmp."""
    keeps = keep_paths()
    setup.read_paths = [*keeps, "/usr", "/bin", "/lib", "/lib64", "/etc", "/proc"]
    if os.geteuid() != 0:
        setup.add("mount-namespace", False, "not root")
        return
    try:
        sc.mount(None, "/", None, sc.MS_REC | sc.MS_PRIVATE)
        if setup.pid_namespace:
            # hidepid=2: the unprivileged child cannot even list the root-owned worker.
            sc.mount(
                "proc", "/proc", "proc", sc.MS_NOSUID | sc.MS_NODEV | sc.MS_NOEXEC, "hidepid=2"
            )
        sc.mount("tmpfs", SCRATCH, "tmpfs", sc.MS_NOSUID | sc.MS_NODEV, "size=64m,mode=0711")
        hidden = _hide_paths(keeps)
    except OSError as error:
        setup.add("mount-namespace", False, f"mount setup failed: {error}")
        return
    setup.add("mount-namespace", True, f"hidden: {', '.join(hidden)}; kept ro: {', '.join(keeps)}")
    setup.add("private-tmp", True, f"per-call dir on a private {SCRATCH} tmpfs (64 MiB)")


def _hide_paths(keeps: list[str]) -> list[str]:
    """Mount empty read-only tmpfs over secrets, re-binding needed paths underneath."""
    targets: list[str] = []
    for path in sorted({os.path.realpath(p) for p in HIDDEN_PATHS}, key=len):
        if os.path.isdir(path) and not any(_under(path, t) for t in targets):
            targets.append(path)
    staged: list[tuple[str, str]] = []
    for index, keep in enumerate(keeps):
        if any(_under(keep, t) for t in targets):
            stage = f"{SCRATCH}/.keep{index}"
            os.mkdir(stage)
            sc.mount(keep, stage, None, sc.MS_BIND | sc.MS_REC)
            staged.append((stage, keep))
    for target in targets:
        sc.mount("tmpfs", target, "tmpfs", sc.MS_NOSUID | sc.MS_NODEV, "size=1m,mode=0755")
    for stage, keep in staged:
        os.makedirs(keep, mode=0o755, exist_ok=True)
        sc.mount(stage, keep, None, sc.MS_MOVE)
        sc.mount(None, keep, None, sc.MS_REMOUNT | sc.MS_BIND | sc.MS_RDONLY | sc.MS_NOSUID)
        os.rmdir(stage)
    for package in PACKAGE_DIRS:
        visible = any(_under(package, k) for k in keeps) or not any(
            _under(package, t) for t in targets
        )
        if os.path.isdir(package) and visible:
            sc.mount("tmpfs", package, "tmpfs", sc.MS_NOSUID | sc.MS_NODEV, "size=1m,mode=0755")
            targets.append(package)
    for target in targets:
        sc.mount(None, target, None, sc.MS_REMOUNT | sc.MS_RDONLY | sc.MS_NOSUID | sc.MS_NODEV)
    return targets


def _under(path: str, parent: str) -> bool:
    return path == parent or path.startswith(parent.rstrip("/") + "/")


def probe_child_layers(setup: WorkerSetup, uid: int) -> None:
    """Decide which per-call layers this kernel and privilege level can enforce."""
    setup.add("scrubbed-env", True, f"environment replaced by {sorted(SAFE_ENV)} + HOME/TMPDIR")
    setup.add("rlimits", True, "CPU, AS, NPROC, FSIZE, NOFILE, CORE=0")
    if os.geteuid() == 0:
        setup.sandbox_uid = uid
        setup.add("uid-drop", True, f"model code runs as uid/gid {uid}, no groups")
    else:
        setup.add("uid-drop", False, f"not root: code runs as uid {os.geteuid()}")
    setup.add("no-new-privs", True, "PR_SET_NO_NEW_PRIVS before model code")
    setup.landlock_abi = landlock.abi_version()
    setup.add(
        "landlock",
        setup.landlock_abi > 0,
        f"ABI {setup.landlock_abi}: read-only stdlib/site-packages, rw temp dir only"
        + ("; TCP bind/connect denied" if setup.landlock_abi >= 4 else "")
        + ("; signals and abstract sockets scoped" if setup.landlock_abi >= 6 else "")
        if setup.landlock_abi
        else "Landlock not supported or disabled by this kernel",
    )
    setup.seccomp_ok, why = seccomp.supported()
    setup.add("seccomp", setup.seccomp_ok, why)


def apply_child_layers(setup: WorkerSetup, workdir: str, timeout_s: float, limits: Limits) -> None:
    """In the forked child, before model code: everything that must hold per call.

    Raises ``OSError`` if a layer the worker reported active cannot be applied, so the
    call fails closed as an infrastructure error rather than running unconfined.
    """
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update({**SAFE_ENV, "HOME": workdir, "TMPDIR": workdir})
    cpu = int(timeout_s) + 1
    for which, value in (
        (resource.RLIMIT_CPU, (cpu, cpu + 1)),
        (resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes)),
        (resource.RLIMIT_NPROC, (limits.max_processes, limits.max_processes)),
        (resource.RLIMIT_FSIZE, (limits.max_file_bytes, limits.max_file_bytes)),
        (resource.RLIMIT_NOFILE, (limits.max_open_files, limits.max_open_files)),
        (resource.RLIMIT_CORE, (0, 0)),
        (resource.RLIMIT_MEMLOCK, (0, 0)),
        (resource.RLIMIT_MSGQUEUE, (0, 0)),
    ):
        resource.setrlimit(which, value)
    if setup.sandbox_uid is not None:
        uid = setup.sandbox_uid
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    sc.prctl(sc.PR_SET_NO_NEW_PRIVS, 1)
    if setup.landlock_abi:
        landlock.restrict(
            [*setup.read_paths, "/dev/zero", "/dev/urandom"],
            [workdir, "/dev/null"],
            setup.landlock_abi,
        )
    if setup.seccomp_ok:
        seccomp.install()
