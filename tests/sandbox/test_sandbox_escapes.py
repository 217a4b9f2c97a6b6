"""Hostile programs: each must be contained, get a clear result, and leave the pool usable.

Runs in every mode of ``conftest.MODES`` (as root; without root with and without user
namespaces). Each case is one program, the check of its result and its time limit.
"""
# ruff: noqa: E501 - the hostile programs read best as one table row each

from __future__ import annotations

import os
import re
import resource
import socket
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bs4_env.sandbox.base import ExecRequest, ExecResult
from bs4_env.sandbox.isolation import PACKAGE_DIRS, Limits
from bs4_env.sandbox.local_backend import LocalExecutor
from tests.sandbox.conftest import (
    SECRET,
    assert_serves_normal_call,
    output,
    wait_until_no_call_processes,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
PROJECT = Path(__file__).resolve().parents[2]


@dataclass
class Host:
    """Things outside the sandbox the hostile programs aim at."""

    tcp: socket.socket
    udp: socket.socket
    unix: socket.socket
    unix_path: str
    dgram: socket.socket
    dgram_path: str
    truth: Path
    ssh_key: Path
    outside_dir: Path
    victim: subprocess.Popen[bytes]
    """A process of the host's user outside every call (stands for the host engine)."""
    baseline: tuple[object, ...]

    def fmt(self, code: str) -> str:
        return code.format(
            tcp_port=self.tcp.getsockname()[1],
            udp_port=self.udp.getsockname()[1],
            unix_path=self.unix_path,
            dgram_path=self.dgram_path,
            truth=self.truth,
            ssh_key=self.ssh_key,
            outside=self.outside_dir,
            project=PROJECT,
            host_pid=os.getpid(),
            victim=self.victim.pid,
        )


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Host]:
    base = tmp_path_factory.mktemp("outside")
    tcp = socket.create_server(("127.0.0.1", 0))
    tcp.setblocking(False)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    unix_path = str(base / "listener.sock")
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(unix_path)
    os.chmod(unix_path, 0o777)  # even a world-writable socket must be unreachable
    unix.listen()
    unix.setblocking(False)
    dgram_path = str(base / "datagram.sock")
    dgram = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    dgram.bind(dgram_path)
    os.chmod(dgram_path, 0o777)
    dgram.setblocking(False)
    os.chmod(base, 0o755)
    truth = base / "truth.json"
    truth.write_text(f'{{"answer": "{SECRET}"}}')
    truth.chmod(0o644)
    ssh_dir = Path.home() / ".ssh"
    ssh_dir.mkdir(mode=0o700, exist_ok=True)
    ssh_key = ssh_dir / "bs4env_fake_id_ed25519"
    ssh_key.write_text(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET}\n")
    victim = subprocess.Popen(["sleep", "600"])
    baseline = _process_settings(victim.pid)
    yield Host(tcp, udp, unix, unix_path, dgram, dgram_path, truth, ssh_key, base, victim, baseline)
    victim.kill()
    victim.wait()
    for sock in (tcp, udp, unix, dgram):
        sock.close()
    ssh_key.unlink()


def _nothing_accepted(sock: socket.socket) -> bool:
    try:
        sock.accept()[0].close()
    except BlockingIOError:
        return True
    return False


def _nothing_received(sock: socket.socket) -> bool:
    try:
        sock.recv(100)
    except BlockingIOError:
        return True
    return False


def failed_with(*names: str) -> Callable[[ExecResult, Host], None]:
    """The program ran (no infra error), and its output names one of the expected errors."""

    def check(result: ExecResult, host: Host) -> None:
        assert result.infra_error is None, result
        assert any(name in output(result) for name in names), result

    return check


def timed_out(result: ExecResult, host: Host) -> None:
    assert result.timed_out, result
    assert result.exit_code is None
    assert result.duration_s < 5, result


def secret_absent(result: ExecResult, host: Host) -> None:
    """The program may read things (its own scrubbed environment), but no host secret."""
    assert result.infra_error is None, result
    assert SECRET not in output(result), result


def no_secret(result: ExecResult, host: Host) -> None:
    assert result.infra_error is None, result
    assert SECRET not in output(result), result
    assert "FOUND" not in output(result), result


def all_of(*checks: Callable[[ExecResult, Host], None]) -> Callable[[ExecResult, Host], None]:
    def check(result: ExecResult, host: Host) -> None:
        for one in checks:
            one(result, host)

    return check


def printed(text: str) -> Callable[[ExecResult, Host], None]:
    def check(result: ExecResult, host: Host) -> None:
        assert result.infra_error is None, result
        assert text in result.stdout, result

    return check


def not_printed(text: str) -> Callable[[ExecResult, Host], None]:
    def check(result: ExecResult, host: Host) -> None:
        assert text not in result.stdout, result

    return check


def exit_by_signal(signum: int) -> Callable[[ExecResult, Host], None]:
    def check(result: ExecResult, host: Host) -> None:
        assert result.infra_error is None and result.exit_code == -signum, result

    return check


def nothing_connected(result: ExecResult, host: Host) -> None:
    assert "CONNECTED" not in result.stdout, result
    assert _nothing_accepted(host.tcp) and _nothing_accepted(host.unix)
    assert _nothing_received(host.udp) and _nothing_received(host.dgram)


def all_blocked(result: ExecResult, host: Host) -> None:
    """Every ``attempt`` of the program was refused."""
    assert result.infra_error is None and result.exit_code == 0, result
    assert "blocked" in result.stdout and "FOUND" not in result.stdout, result


def _process_settings(pid: int) -> tuple[object, ...]:
    """What a call must not be able to change in a process outside it (and in the host)."""
    return (
        resource.prlimit(pid, resource.RLIMIT_NOFILE),
        os.getpriority(os.PRIO_PROCESS, pid),
        os.sched_getaffinity(pid),
        os.sched_getscheduler(pid),
        os.getpriority(os.PRIO_PROCESS, 0),
    )


def victim_untouched(result: ExecResult, host: Host) -> None:
    """The host-side process kept its limits, priority, affinity, policy and state."""
    pid = host.victim.pid
    assert _process_settings(pid) == host.baseline
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    assert state == "S", f"victim is in state {state}"


def held_at_most(limit_mib: int) -> Callable[[ExecResult, Host], None]:
    """The program's processes never held more than ``limit_mib`` together."""

    def check(result: ExecResult, host: Host) -> None:
        assert result.infra_error is None, result
        match = re.search(r"held (\d+) MiB", result.stdout)
        assert match, result
        assert int(match.group(1)) <= limit_mib, result

    return check


def no_host_sysv(result: ExecResult, host: Host) -> None:
    """Nothing with the programs' keys exists in the host's IPC namespace."""
    for kind in ("shm", "msg", "sem"):
        keys = [
            line.split()[0] for line in Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]
        ]
        assert not [k for k in keys if int(k) >> 16 == 0x0B5E], (kind, keys)


def stopped_early(most: int) -> Callable[[ExecResult, Host], None]:
    """The program was refused (not timed out) before it made more than ``most`` entries."""

    def check(result: ExecResult, host: Host) -> None:
        assert result.infra_error is None and not result.timed_out, result
        match = re.search(r"made (\d+)", result.stdout)
        assert match and int(match.group(1)) <= most, result
        assert "refused" in result.stdout, result

    return check


TRY = """
import os, sys
def attempt(label, fn):
    try:
        value = fn()
    except BaseException as error:
        print(label, "blocked:", type(error).__name__, error)
    else:
        print(label, "FOUND", repr(value)[:200])
"""

CASES: dict[str, tuple[str, Callable[[ExecResult, Host], None], float]] = {
    "env-secrets": (TRY + """
print({{k: v for k, v in os.environ.items()}})
attempt("environ", lambda: open("/proc/self/environ", "rb").read())
attempt("ppid-environ", lambda: open(f"/proc/{{os.getppid()}}/environ", "rb").read())
""", all_of(secret_absent, printed("PATH")), 10),
    "proc-host-pid-environ": (TRY + """
attempt("host", lambda: open("/proc/{host_pid}/environ", "rb").read())
attempt("init", lambda: open("/proc/1/environ", "rb").read())
attempt("init-cmdline", lambda: open("/proc/1/cmdline", "rb").read())
print("visible pids", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
""", all_of(no_secret, failed_with("blocked")), 10),
    "tcp-connect": (TRY + """
import socket
attempt("tcp", lambda: socket.create_connection(("127.0.0.1", {tcp_port}), 2) and "CONNECTED")
""", all_of(nothing_connected, failed_with("PermissionError")), 10),
    "udp-send": (TRY + """
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(b"leak", ("127.0.0.1", {udp_port}))
print("CONNECTED")
""", all_of(nothing_connected, failed_with("PermissionError")), 10),
    "unix-connect": (TRY + """
import socket
s = socket.socket(socket.AF_UNIX)
s.connect("{unix_path}")
print("CONNECTED")
""", all_of(nothing_connected, failed_with("PermissionError", "FileNotFoundError")), 10),
    "dns-lookup": ("""
import socket
print(socket.getaddrinfo("example.com", 80))
""", all_of(nothing_connected, failed_with("gaierror", "PermissionError", "OSError")), 10),
    "read-project-tree": (TRY + """
attempt("pyproject", lambda: open("{project}/pyproject.toml").read())
attempt("listdir", lambda: os.listdir("{project}"))
attempt("work", lambda: os.listdir("/work"))
""", all_of(no_secret, failed_with("blocked")), 10),
    "read-truth-file": (TRY + """
attempt("truth", lambda: open("{truth}").read())
""", all_of(no_secret, failed_with("blocked")), 10),
    "read-etc-shadow": (TRY + """
attempt("shadow", lambda: open("/etc/shadow").read())
""", failed_with("blocked"), 10),
    "read-ssh-key": (TRY + """
attempt("key", lambda: open("{ssh_key}").read())
attempt("ssh", lambda: os.listdir(os.path.dirname("{ssh_key}")))
attempt("root", lambda: os.listdir("/root"))
""", all_of(no_secret, failed_with("blocked")), 10),
    "write-outside-tmp": (TRY + """
for path in ["{outside}/escaped", "/tmp/escaped", "/var/tmp/escaped", "/dev/shm/escaped", "{project}/escaped", "/etc/escaped", "../escaped"]:
    attempt(path, lambda: open(path, "w").write("x"))
""", all_of(failed_with("blocked"), printed("/tmp/escaped blocked")), 10),
    "fork-bomb": ("""
import os
while True:
    try:
        os.fork()
    except OSError:
        pass
""", timed_out, 1.5),
    "thread-bomb": ("""
import threading, time
threads = []
while True:
    t = threading.Thread(target=time.sleep, args=(30,), daemon=True)
    t.start()
    threads.append(t)
""", failed_with("RuntimeError", "MemoryError"), 10),
    "memory-bomb": ("""
chunks = []
while True:
    chunks.append(bytes(100 * 1024 * 1024))
""", failed_with("MemoryError"), 10),
    "cpu-spin": ("while True:\n    pass\n", timed_out, 1.0),
    "sleep-past-timeout": ("import time\nprint('start', flush=True)\ntime.sleep(60)\n",
                           all_of(timed_out, printed("start")), 1.0),
    "double-fork-daemon": ("""
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(120)
    os._exit(0)
print("parent done")
""", failed_with("PermissionError"), 10),
    "setsid-background": ("""
import subprocess
subprocess.Popen(["sleep", "120"], start_new_session=True)
print("spawned")
""", failed_with("PermissionError"), 10),
    "huge-stdout": ("import sys\nsys.stdout.write('x' * 50_000_000)\n", printed("bytes truncated]"), 10),
    "huge-stderr": ("import sys\nfor _ in range(200):\n    sys.stderr.write('e' * 100_000)\n",
                    failed_with("bytes truncated]"), 10),
    "binary-garbage-stdout": ("import os, sys\nsys.stdout.buffer.write(os.urandom(200_000))\n",
                              failed_with("bytes truncated]"), 10),
    "kill-parent-and-all": (TRY + """
import signal
attempt("ppid", lambda: os.kill(os.getppid(), signal.SIGKILL))
attempt("init", lambda: os.kill(1, signal.SIGKILL))
for pid in range(2, 300):
    if pid != os.getpid():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
attempt("host", lambda: os.kill({host_pid}, signal.SIGKILL))
print("survived")
""", all_of(printed("ppid blocked"), printed("survived")), 10),
    "ctypes-libc-tricks": (TRY + """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
def check(label, rc):
    print(label, "rc", rc, "errno", ctypes.get_errno())
check("socket", libc.socket(2, 1, 0))
check("unshare-user-net", libc.unshare(0x10000000 | 0x40000000))
check("setuid0", libc.setuid(0))
check("chroot", libc.chroot(b"/"))
""", all_of(printed("socket rc -1"), printed("unshare-user-net rc -1"), printed("setuid0 rc -1")), 10),
    "subprocess-and-system": (TRY + """
import subprocess
attempt("cat", lambda: subprocess.run(["cat", "{project}/pyproject.toml"], capture_output=True, text=True).stdout)
print("system rc", os.system("echo SPAWNED; cat /etc/shadow"), flush=True)
os.execv("/bin/cat", ["cat", "{project}/pyproject.toml"])  # same process, same confinement
""", all_of(no_secret, printed("cat blocked"), not_printed("SPAWNED")), 10),
    "import-host-project": ("import bs4_env.tasks\nprint(bs4_env.__file__)\n",
                            failed_with("ModuleNotFoundError", "PermissionError"), 10),
    "sigstop-self": ("import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)\n", timed_out, 1.0),
    "raise-sigsegv": ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", exit_by_signal(11), 10),
    "ctypes-null-deref": ("import ctypes\nctypes.string_at(0)\n", exit_by_signal(11), 10),
    "stdin-read": ("import sys\nprint('stdin:', repr(sys.stdin.read()))\n", printed("stdin: ''"), 10),
    "recursion-bomb": ("def f(n):\n    return f(n + 1)\nf(0)\n", failed_with("RecursionError"), 10),
    "c-stack-overflow": ("import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1)\nf(0)\n",
                         lambda r, h: None if r.timed_out or r.exit_code != 0 else pytest.fail(str(r)), 3),
    "unicode-surrogates": ("print('a\\ud800b')\nimport sys\nprint('\\udcff', file=sys.stderr)\n",
                           printed("a\\ud800b"), 10),
    "huge-file-write": ("open('big.bin', 'wb').write(b'x' * 200_000_000)\n", failed_with("File too large", "MemoryError", "PermissionError", "No space left"), 10),
    "many-files": ("files = [open('/dev/null') for _ in range(100_000)]\n", failed_with("Too many open files"), 10),
    "chdir-dotdot": (TRY + """
os.chdir("..")
attempt("cwd-list", lambda: os.listdir("."))
attempt("up", lambda: os.listdir("../.."))
attempt("read", lambda: open("../../work/main/pyproject.toml").read())
""", all_of(no_secret, failed_with("blocked")), 10),
    "setuid-root": (TRY + """
attempt("setuid", lambda: os.setuid(0))
attempt("setresuid", lambda: os.setresuid(0, 0, 0))
print("uid", os.getuid(), os.geteuid())
""", all_of(printed("setuid blocked"), printed("setresuid blocked"), not_printed("uid 0 ")), 10),
    "mount": (TRY + """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print("mount rc", libc.mount(b"none", b".", b"tmpfs", 0, None))
print("system", os.system("mount -t proc proc . 2>&1"))
""", printed("mount rc -1"), 10),
    "ptrace": ("""
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print("attach rc", libc.ptrace(16, 1, 0, 0), "traceme rc", libc.ptrace(0, 0, 0, 0))
""", printed("attach rc -1 traceme rc -1"), 10),
    "garble-report-fd": ("import os\nos.write(3, b'{{not json')\nprint('ok')\n", printed("ok"), 10),
    # --- issue 8: memory, disk and IPC budgets per call; nothing of a call outlives it ---
    "fork-children-hold-memory": ("""
import os, time
r, w = os.pipe()
for _ in range(3):
    try:
        pid = os.fork()
    except OSError as error:
        print("fork refused:", error)
        break
    if pid == 0:
        try:
            chunk = b"\\x01" * (400 << 20)
            os.write(w, b"1")
            time.sleep(3)
        finally:
            os._exit(0)
os.close(w)
held = 0
while chunk := os.read(r, 16):
    held += len(chunk)
print(f"held {{held * 400}} MiB in children")
""", held_at_most(Limits().memory_bytes >> 20), 10),
    "sysv-ipc-create": ("""
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
shm = [libc.shmget(0x0B5E0000 + i, 512 << 20, 0o1600) for i in range(3)]
print("shm", shm, "msg", libc.msgget(0x0B5E0010, 0o1600), "sem", libc.semget(0x0B5E0020, 1, 0o1600))
""", all_of(printed("shm [-1, -1, -1] msg -1 sem -1"), no_host_sysv), 10),
    "memfd-outside-address-space": (TRY + """
attempt("memfd", lambda: [os.ftruncate(os.memfd_create("x"), 16 << 20) for _ in range(8)])
""", all_blocked, 10),
    "nested-directories": ("""
import os
made = 0
try:
    while made < 3000:
        os.mkdir("d")
        os.chdir("d")
        made += 1
except OSError as error:
    print("refused:", error)
print("made", made)
""", stopped_early(Limits().scratch_inodes), 10),
    "many-empty-files": ("""
made = 0
try:
    while made < 340_000:
        open(f"f{{made}}", "w").close()
        made += 1
except OSError as error:
    print("refused:", error)
print("made", made)
""", stopped_early(Limits().scratch_inodes), 10),
    "socketpair-sendto-host-path": (TRY + """
import socket
def send():
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    a.sendto(b"leak", "{dgram_path}")
    return "CONNECTED"
attempt("socketpair", send)
attempt("socket-unix-dgram", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"x", "{dgram_path}"))
attempt("socket-netlink", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW))
""", all_of(nothing_connected, all_blocked), 10),
    "retune-host-process": (TRY + """
import resource, signal
v = {victim}
attempt("prlimit", lambda: resource.prlimit(v, resource.RLIMIT_NOFILE, (64, 64)))
attempt("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, v, 19))
attempt("setpriority-user", lambda: os.setpriority(os.PRIO_USER, 0, 19))
attempt("setpriority-group", lambda: os.setpriority(os.PRIO_PGRP, 0, 19))
attempt("affinity", lambda: os.sched_setaffinity(v, {{0}}))
attempt("scheduler", lambda: os.sched_setscheduler(v, os.SCHED_BATCH, os.sched_param(0)))
attempt("stop", lambda: os.kill(v, signal.SIGSTOP))
attempt("pidfd", lambda: os.pidfd_open(v))
attempt("host-prlimit", lambda: resource.prlimit({host_pid}, resource.RLIMIT_CORE, (0, 0)))
""", all_of(all_blocked, victim_untouched), 10),
    # Our generators rebuild the truth from a seed: they must be unreadable even when the
    # package is installed in a site-packages directory that the sandbox can otherwise read.
    "read-task-generators": (TRY + f"""
for package in {list(PACKAGE_DIRS)!r}:
    attempt("read", lambda: open(package + "/__init__.py").read())
attempt("import", lambda: __import__("bs4_env.tasks.registry"))
""", all_of(no_secret, printed("read blocked"), printed("import blocked")), 10),
    "close-stdout": ("import os\nos.close(1)\nos.close(2)\n", lambda r, h: None, 10),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
async def test_hostile_program_is_contained(executor: LocalExecutor, host: Host, name: str) -> None:
    code, check, timeout_s = CASES[name]
    result = await executor.run(
        ExecRequest(code=host.fmt(code), html="<p>x</p>", timeout_s=timeout_s)
    )
    check(result, host)
    assert result.infra_error is None, result
    assert len(result.stdout) < 20_000 and len(result.stderr) < 20_000
    assert await wait_until_no_call_processes() == [], "a call's process outlived it"
    assert not (host.outside_dir / "escaped").exists()
    assert not (PROJECT / "escaped").exists()
    await assert_serves_normal_call(executor)
