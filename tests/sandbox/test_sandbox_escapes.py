"""Hostile programs: each must be contained, get a clear result, and leave the pool usable."""
# ruff: noqa: E501 - the hostile programs read best as one table row each

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bs4_env.sandbox.base import ExecRequest, ExecResult
from bs4_env.sandbox.isolation import PACKAGE_DIRS
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
    truth: Path
    ssh_key: Path
    outside_dir: Path

    def fmt(self, code: str) -> str:
        return code.format(
            tcp_port=self.tcp.getsockname()[1],
            udp_port=self.udp.getsockname()[1],
            unix_path=self.unix_path,
            truth=self.truth,
            ssh_key=self.ssh_key,
            outside=self.outside_dir,
            project=PROJECT,
            host_pid=os.getpid(),
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
    truth = base / "truth.json"
    truth.write_text(f'{{"answer": "{SECRET}"}}')
    truth.chmod(0o644)
    ssh_dir = Path.home() / ".ssh"
    ssh_dir.mkdir(mode=0o700, exist_ok=True)
    ssh_key = ssh_dir / "bs4env_fake_id_ed25519"
    ssh_key.write_text(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET}\n")
    yield Host(tcp, udp, unix, unix_path, truth, ssh_key, base)
    for sock in (tcp, udp, unix):
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


def exit_by_signal(signum: int) -> Callable[[ExecResult, Host], None]:
    def check(result: ExecResult, host: Host) -> None:
        assert result.infra_error is None and result.exit_code == -signum, result

    return check


def nothing_connected(result: ExecResult, host: Host) -> None:
    assert "CONNECTED" not in result.stdout, result
    assert _nothing_accepted(host.tcp) and _nothing_accepted(host.unix)
    assert _nothing_received(host.udp)


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
""", all_of(no_secret, printed("PATH")), 10),
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
""", printed("parent done"), 10),
    "setsid-background": ("""
import subprocess
subprocess.Popen(["sleep", "120"], start_new_session=True)
print("spawned")
""", printed("spawned"), 10),
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
    "subprocess-and-system": ("""
import os, subprocess
r = subprocess.run(["cat", "{project}/pyproject.toml"], capture_output=True, text=True)
print("cat rc", r.returncode, r.stdout[:80])
print("system rc", os.system("id -u; cat /etc/shadow"))
""", all_of(no_secret, printed("cat rc 1"), printed("60")), 10),
    "import-host-project": ("import bs4_env.tasks\nprint(bs4_env.__file__)\n",
                            failed_with("ModuleNotFoundError"), 10),
    "sigstop-self": ("import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)\n", timed_out, 1.0),
    "raise-sigsegv": ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", exit_by_signal(11), 10),
    "ctypes-null-deref": ("import ctypes\nctypes.string_at(0)\n", exit_by_signal(11), 10),
    "stdin-read": ("import sys\nprint('stdin:', repr(sys.stdin.read()))\n", printed("stdin: ''"), 10),
    "recursion-bomb": ("def f(n):\n    return f(n + 1)\nf(0)\n", failed_with("RecursionError"), 10),
    "c-stack-overflow": ("import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1)\nf(0)\n",
                         lambda r, h: None if r.timed_out or r.exit_code != 0 else pytest.fail(str(r)), 3),
    "unicode-surrogates": ("print('a\\ud800b')\nimport sys\nprint('\\udcff', file=sys.stderr)\n",
                           printed("a\\ud800b"), 10),
    "huge-file-write": ("open('big.bin', 'wb').write(b'x' * 200_000_000)\n", failed_with("File too large", "MemoryError"), 10),
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
""", all_of(printed("setuid blocked"), printed("uid 60")), 10),
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
