"""Worker-level isolation: namespaces, mounts and what every layer reports.

As root the worker enters new PID, network, mount, IPC and UTS namespaces, mounts a fresh
/proc that only shows its own namespace, hides the host's secrets (home directories, the
project tree, dataset caches, shared temp dirs) under empty tmpfs mounts with the interpreter
and site-packages bound back read-only, and gets a private scratch /tmp. Everything applied per
call, in the forked child, lives in ``call_layers``. Every layer reports whether it is active
and why not.
"""

from __future__ import annotations

import os
import pwd
import site
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from bs4_env.sandbox import syscalls as sc
from bs4_env.sandbox.landlock import Policy
from bs4_env.sandbox.syscalls import EncodedMount


def _home_dirs() -> tuple[str, ...]:
    """This user's home directory, if it has one (a uid may have no passwd entry at all)."""
    home = os.environ.get("HOME")
    if not home:
        try:
            home = pwd.getpwuid(os.geteuid()).pw_dir
        except KeyError:
            return ()
    return (home,)


PROJECT_ROOT = str(Path(__file__).resolve().parents[2])
HIDDEN_PATHS = (
    "/root", "/home", "/work", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run", "/mnt",
    "/media", "/srv", "/opt", "/farm", "/old_root", "/var/lib", "/var/log", "/var/cache",
    "/var/mail", "/var/spool", "/var/backups", "/boot", PROJECT_ROOT, *_home_dirs(),
)  # fmt: skip
# Our own packages hold the task generators (and so the truth): hide them even when they are
# installed inside a site-packages directory that model code may otherwise read.
PACKAGE_DIRS = tuple(
    str(Path(__file__).resolve().parents[2] / name) for name in ("bs4_env", "beautiful_soup_env")
)
SCRATCH = "/tmp"
# Where calls run when the worker has its own mount namespace (each call mounts its own tmpfs
# here, in its own mount namespace); otherwise the host gives each slot a private directory.
CALL_DIR = f"{SCRATCH}/call"
SAFE_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
CallMode = Literal["root", "userns", "none"]


@dataclass(frozen=True)
class LayerStatus:
    """One isolation layer: is it active here, and the evidence or the reason it is not."""

    name: str
    active: bool
    detail: str


@dataclass(frozen=True)
class Limits:
    """Per-call limits: ``setrlimit`` values and the caps of the call's temp file system."""

    memory_bytes: int = 1 << 30
    max_processes: int = 64  # threads only: new processes are denied by seccomp
    max_file_bytes: int = 16 << 20
    max_open_files: int = 256
    scratch_bytes: int = 64 << 20
    scratch_inodes: int = 1024


@dataclass
class WorkerSetup:
    """What the worker managed to set up; the per-call child applies the rest."""

    workdir: str
    layers: list[LayerStatus] = field(default_factory=list)
    pid_namespace: bool = False
    mount_namespace: bool = False
    sandbox_uid: int | None = None
    landlock_abi: int = 0
    seccomp_ok: bool = False
    read_paths: list[str] = field(default_factory=list)
    landlock: Policy | None = None
    rlimits: list[tuple[int, tuple[int, int]]] = field(default_factory=list)
    """Every call's resource limits but RLIMIT_CPU (which follows the call's timeout)."""
    call_tmpfs: EncodedMount | None = None
    """The ``mount`` arguments of every call's own tmpfs (where calls get one)."""
    landlock_own_proc: bool = False
    """Whether a call's Landlock rules add its own ``/proc/<pid>`` (the host's /proc)."""
    landlock_writable: list[str] = field(default_factory=list)
    """The paths a call's Landlock rules make writable (resolved in the call)."""
    call_mode: CallMode = "none"
    """How each call gets its own mount and IPC namespace: as root, through a user namespace,
    or not at all (then its directory is read-only to it)."""

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
        setup.add("network-namespace", False, "not root; sockets are denied by seccomp instead")
        setup.add("pid-namespace", False, "not root; a call cannot start processes anyway")
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
    setup.read_paths = [*keeps, "/usr", "/bin", "/lib", "/lib64", "/etc"]
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
        # Only mount points live here: every call mounts its own tmpfs over CALL_DIR.
        sc.mount("tmpfs", SCRATCH, "tmpfs", sc.MS_NOSUID | sc.MS_NODEV, "size=1m,mode=0711")
        hidden = _hide_paths(keeps)
        os.mkdir(CALL_DIR, 0o755)
    except OSError as error:
        setup.add("mount-namespace", False, f"mount setup failed: {error}")
        return
    setup.mount_namespace = True
    setup.workdir = CALL_DIR
    setup.add("mount-namespace", True, f"hidden: {', '.join(hidden)}; kept ro: {', '.join(keeps)}")


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
