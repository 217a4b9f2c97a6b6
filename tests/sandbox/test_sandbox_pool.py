"""Warm pool behaviour: no state between calls, worker death, concurrency, clean shutdown."""

from __future__ import annotations

import asyncio
import os
import pwd
import signal
import time

import pytest

from bs4_env.sandbox.base import ExecRequest
from bs4_env.sandbox.doctor import adoctor
from bs4_env.sandbox.local_backend import LocalExecutor
from bs4_env.sandbox.subprocess_backend import SubprocessExecutor
from tests.sandbox.conftest import (
    NORMAL,
    PAGE,
    assert_serves_normal_call,
    call_processes,
    sandbox_processes,
    wait_until_no_call_processes,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_workers_start_as_concurrent_calls_need_them() -> None:
    """A pool sized 4 starts one worker and keeps one for calls in a row; four overlapping
    calls start four at once (growth past pool_size would wait 30 s here), six start no more."""
    sleeper = ExecRequest("import time\ntime.sleep(1)\nprint('woke')", PAGE, timeout_s=20)
    async with LocalExecutor(pool_size=4, grow_after_s=30) as sandbox:
        await sandbox.start()
        assert len(sandbox.worker_pids) == 1
        for _ in range(3):
            await assert_serves_normal_call(sandbox)
        assert len(sandbox.worker_pids) == 1
        for overlapping, workers in ((4, 4), (6, 4)):
            results = await asyncio.gather(*(sandbox.run(sleeper) for _ in range(overlapping)))
            assert all(r.ok and r.stdout == "woke\n" for r in results), results
            assert len(sandbox.worker_pids) == workers


async def test_state_does_not_leak_between_calls(executor: LocalExecutor) -> None:
    write = """
import bs4, json, os
bs4.LEAK = "module state"
globals()["LEAK"] = 1
try:
    open("leak.txt", "w").write("file state")
except PermissionError:
    pass  # no writable temp dir in this mode: nothing to leak that way
print(os.getcwd())
"""
    read = """
import bs4, os
print(getattr(bs4, "LEAK", None), "LEAK" in globals(), os.path.exists("leak.txt"), os.listdir("."))
"""
    for _ in range(3):  # with 2 workers, at least one read follows a write on the same worker
        first = await executor.run(ExecRequest(write, PAGE))
        assert first.ok, first
        second = await executor.run(ExecRequest(read, PAGE))
        assert second.stdout == "None False False []\n", second
        workdir = first.stdout.strip()  # as the host sees it: gone, or left empty
        assert not os.path.exists(workdir) or os.listdir(workdir) == [], workdir


async def test_parse_counting_over_repeated_pages(executor: LocalExecutor) -> None:
    code = "make_soup('lxml'); make_soup('html5lib'); print(len(HTML), QUERY)"
    big = PAGE + "<p>" + "y" * 300_000 + "</p>"
    for page in (PAGE, big, PAGE, big):
        result = await executor.run(ExecRequest(code, page, query="q?"))
        assert result.ok and result.soup_parses == 2, result
        assert result.stdout == f"{len(page)} q?\n"


async def test_same_semantics_as_subprocess_backend(executor: LocalExecutor) -> None:
    code = "import sys\nprint(make_soup().p.string)\nraise KeyError('nope')"
    warm = await executor.run(ExecRequest(code, PAGE))
    naive = await SubprocessExecutor().run(ExecRequest(code, PAGE))
    for result in (warm, naive):
        assert result.exit_code == 1 and result.stdout == "hi\n", result
        assert result.stderr.startswith('Traceback (most recent call last):\n  File "<model-code>"')
        assert result.stderr.endswith("KeyError: 'nope'\n")
    assert warm.stderr == naive.stderr


async def test_doctor_reports_verified_layers(executor: LocalExecutor) -> None:
    layers = await adoctor(executor)
    by_name = {layer.name: layer for layer in layers}
    new = {"ipc-namespace", "call-memory-budget", "temp-dir-caps", "socket-denial",
           "pid-scoped-syscalls"}  # fmt: skip
    assert {"network-namespace", "landlock", "seccomp", "uid-drop", "rlimits"} | new <= set(by_name)
    for layer in layers:
        assert isinstance(layer.active, bool) and layer.detail
    if os.geteuid() == 0:
        assert all(layer.active for layer in layers), layers
    # Without root every new layer holds too, except a per-call IPC namespace when user
    # namespaces are off (SysV IPC is denied by seccomp either way).
    expected_inactive = {"ipc-namespace"} if not executor.user_namespaces else set()
    for name in new - expected_inactive:
        assert by_name[name].active and "verified by probe" in by_name[name].detail, layers


@pytest.mark.skipif(os.geteuid() == 0, reason="root has a passwd entry; see run_unprivileged")
async def test_runs_for_a_uid_without_passwd_entry(executor: LocalExecutor) -> None:
    """The unprivileged CI run uses a uid unknown to /etc/passwd: the pool must still work."""
    try:
        pwd.getpwuid(os.getuid())
    except KeyError:
        await assert_serves_normal_call(executor)
    else:
        pytest.skip(f"uid {os.getuid()} has a passwd entry")


@pytest.mark.slow
async def test_worker_sigkilled_between_calls_is_replaced(executor: LocalExecutor) -> None:
    for pid in executor.worker_pids:
        os.kill(pid, signal.SIGKILL)
    await asyncio.sleep(0.5)  # let the event loop see the deaths
    # Workers found dead before a call are replaced, never charged to the program.
    results = [await executor.run(NORMAL) for _ in range(4)]
    assert all(r.ok for r in results), results
    await assert_serves_normal_call(executor)
    await assert_serves_normal_call(executor)


async def test_worker_sigkilled_mid_call_gives_infra_error(executor: LocalExecutor) -> None:
    await assert_serves_normal_call(executor)
    call = asyncio.ensure_future(
        executor.run(ExecRequest("import time\ntime.sleep(30)", PAGE, timeout_s=20))
    )
    await asyncio.sleep(0.5)
    calls = call_processes()
    busy = [p for p in executor.worker_pids if any(_descends_from(c, p) for c in calls)]
    assert busy, "no worker is running the call"
    os.kill(busy[0], signal.SIGKILL)
    result = await asyncio.wait_for(call, 10)
    assert result.infra_error is not None and "died" in result.infra_error, result
    assert await wait_until_no_call_processes() == []
    await asyncio.sleep(0)  # let the respawn start
    deadline = time.monotonic() + 30
    while not (await executor.run(NORMAL)).ok:
        assert time.monotonic() < deadline


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        pid = _parent(pid)
        if pid == ancestor:
            return True
    return False


def _children(pid: int) -> set[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return {int(p) for p in handle.read().split()}
    except OSError:
        return set()


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return int(handle.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


@pytest.mark.slow
async def test_concurrent_calls_do_not_stall_event_loop(executor: LocalExecutor) -> None:
    stall = 0.0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal stall
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            stall = max(stall, now - last - 0.005)
            last = now

    tick = asyncio.ensure_future(ticker())
    big = PAGE + "<div>" + "<p>row</p>" * 700 + "</div>"
    requests = [ExecRequest(NORMAL.code, big if i % 2 else PAGE) for i in range(32)]
    results = await asyncio.gather(*(executor.run(r) for r in requests))
    stop.set()
    await tick
    assert all(r.ok and r.stdout == "Hello\n" for r in results), results
    assert stall < 0.25, f"event loop stalled {stall * 1000:.0f} ms"


@pytest.mark.slow
async def test_aclose_leaves_no_process_behind() -> None:
    sandbox = LocalExecutor(pool_size=2)
    await sandbox.start()
    workers = sandbox.worker_pids
    root = sandbox.temp_root.path
    assert root is not None and root.is_dir()
    assert set(workers) <= set(sandbox_processes(str(root)))
    sleeper = "import time\ntime.sleep(60)"
    pending = asyncio.ensure_future(sandbox.run(ExecRequest(sleeper, PAGE, timeout_s=30)))
    await asyncio.sleep(0.5)
    await sandbox.aclose()
    pending.cancel()
    await asyncio.gather(pending, return_exceptions=True)
    deadline = time.monotonic() + 5
    while sandbox_processes(str(root)) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert sandbox_processes(str(root)) == []
    for pid in workers:
        assert not os.path.exists(f"/proc/{pid}")
    assert not _children(os.getpid()) & set(workers)
    assert not root.exists()
