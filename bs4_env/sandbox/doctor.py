"""``doctor()``: which isolation layers are really active here, probed from a sandbox child.

The worker reports what it set up; a probe program then runs through the executor like
any model program and tries each boundary for real. A layer counts as active only if the
worker says so and the probe agrees. ``bs4-env doctor`` prints the result.
"""

from __future__ import annotations

import asyncio
import json

from bs4_env.sandbox.base import ExecRequest
from bs4_env.sandbox.isolation import PROJECT_ROOT, LayerStatus, Limits
from bs4_env.sandbox.local_backend import LocalExecutor

_PROBE = r"""
import errno, json, os, resource, socket
found = {}
def fails(fn, *codes):
    try:
        fn()
    except OSError as error:
        return not codes or error.errno in codes
    except Exception:
        return not codes
    return False
lines = open("/proc/self/status").read().splitlines()
status = dict(line.split(":\t", 1) for line in lines if ":\t" in line)
found["network-namespace"] = fails(lambda: socket.create_connection(("127.0.0.1", 9), 1))
found["pid-namespace"] = os.getppid() == 1 and os.getpid() < 1000
# stat() is not subject to Landlock, so a missing file here means the mount hides it.
found["mount-namespace"] = not os.path.exists(os.path.join(PROJECT, "pyproject.toml"))
found["private-tmp"] = os.listdir(".") == [] and fails(lambda: os.listdir("/tmp"))
safe = {"PATH", "LANG", "PYTHONIOENCODING", "HOME", "TMPDIR"}
found["scrubbed-env"] = set(os.environ) <= safe
found["rlimits"] = resource.getrlimit(resource.RLIMIT_AS)[0] == MEMORY
found["rlimits"] &= resource.getrlimit(resource.RLIMIT_CORE) == (0, 0)
found["uid-drop"] = os.getuid() != 0 and os.getgid() != 0 and not os.getgroups()
found["no-new-privs"] = status.get("NoNewPrivs", "").strip() == "1"
found["landlock"] = fails(lambda: os.listdir("/sys"))
found["landlock"] &= fails(lambda: open("/etc/_probe", "w"))
found["seccomp"] = status.get("Seccomp", "").strip() == "2"
found["ipc-namespace"] = os.stat("/proc/self/ns/ipc").st_ino not in WORKER_IPC
disk = os.statvfs(".")
capped = disk.f_files <= INODES and disk.f_blocks * disk.f_frsize <= SCRATCH
found["temp-dir-caps"] = capped or fails(lambda: open("probe", "w"), errno.EACCES)
found["call-memory-budget"] = fails(os.fork, errno.EPERM) and fails(
    lambda: os.memfd_create("probe"), errno.EPERM)
found["socket-denial"] = fails(lambda: socket.socket(socket.AF_UNIX), errno.EPERM)
found["socket-denial"] &= fails(socket.socketpair, errno.EPERM)
# A pid no process has (above the usual pid_max): without the filter these fail with ESRCH,
# with it with EPERM.
free = 4194304 + 4096
found["pid-scoped-syscalls"] = fails(lambda: os.kill(free, 0), errno.EPERM)
found["pid-scoped-syscalls"] &= fails(
    lambda: os.setpriority(os.PRIO_PROCESS, free, 19), errno.EPERM)
found["pid-scoped-syscalls"] &= fails(
    lambda: resource.prlimit(free, resource.RLIMIT_CORE), errno.EPERM)
print(json.dumps(found))
"""


def probe_code(executor: LocalExecutor) -> str:
    """The probe program, with what it compares against filled in."""
    limits = Limits()
    worker_ipc = sorted({ns["ipc"] for ns in executor.worker_namespaces if "ipc" in ns})
    return (
        f"PROJECT = {PROJECT_ROOT!r}\nMEMORY = {limits.memory_bytes}\n"
        f"INODES = {limits.scratch_inodes}\nSCRATCH = {limits.scratch_bytes}\n"
        f"WORKER_IPC = {worker_ipc!r}\n{_PROBE}"
    )


async def adoctor(executor: LocalExecutor | None = None) -> list[LayerStatus]:
    """Probe the layers with ``executor`` (or a temporary one-worker executor)."""
    owned = executor is None
    sandbox = executor if executor is not None else LocalExecutor(pool_size=1)
    try:
        await sandbox.start()
        request = ExecRequest(code=probe_code(sandbox), html="<html></html>", timeout_s=10)
        result = await sandbox.run(request)
        reported = sandbox.layers
    finally:
        if owned:
            await sandbox.aclose()
    if not result.ok:
        why = result.infra_error or result.stderr[-500:] or f"exit {result.exit_code}"
        return [LayerStatus(layer.name, False, f"probe failed: {why}") for layer in reported]
    found: dict[str, bool] = json.loads(result.stdout)
    statuses = []
    for layer in reported:
        verified = found.get(layer.name)
        if layer.active and verified is False:
            statuses.append(
                LayerStatus(layer.name, False, f"reported active, probe disagrees: {layer.detail}")
            )
        else:
            note = " (verified by probe)" if verified and layer.active else ""
            statuses.append(LayerStatus(layer.name, layer.active, layer.detail + note))
    return statuses


def doctor() -> list[LayerStatus]:
    """Synchronous ``adoctor`` for the CLI; call ``adoctor`` from inside an event loop."""
    return asyncio.run(adoctor())
