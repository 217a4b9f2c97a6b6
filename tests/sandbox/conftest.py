"""Shared fixtures for the sandbox tests: a warm executor per mode, fake secrets, processes.

The suite runs in every mode this process can reach: as root (``root``); without root, once
with per-call user namespaces (``userns``, where the kernel allows them) and once without
(``no-userns``, the weakest mode). CI runs it as root and again as an unprivileged uid
through ``tests/sandbox/run_unprivileged.py``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bs4_env.sandbox import syscalls as sc
from bs4_env.sandbox.base import ExecRequest, ExecResult
from bs4_env.sandbox.local_backend import DEFAULT_UID_BASE, LocalExecutor

SECRET = "sk-bs4env-test-secret-7f3a9c"
PAGE = "<html><head><title>Hello</title></head><body><p class='x'>hi</p></body></html>"
NORMAL = ExecRequest(code="print(make_soup().title.string)", html=PAGE)


@pytest.fixture(scope="session", autouse=True)
def _host_secrets() -> Iterator[None]:
    """Fake credentials in the host environment, set before any worker starts."""
    saved = {k: os.environ.get(k) for k in ("OPENAI_API_KEY", "BS4ENV_TEST_SECRET")}
    os.environ["OPENAI_API_KEY"] = SECRET
    os.environ["BS4ENV_TEST_SECRET"] = SECRET
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def _user_namespaces_work() -> bool:
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            sc.unshare(sc.CLONE_NEWUSER)
            code = 0
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


if os.geteuid() == 0:
    MODES = ["root"]
else:
    MODES = ["userns", "no-userns"] if _user_namespaces_work() else ["no-userns"]


def executor_options(mode: str) -> dict[str, Any]:
    """``LocalExecutor`` keyword arguments for a mode."""
    return {} if mode == "root" else {"user_namespaces": mode == "userns"}


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=MODES)
async def executor(request: pytest.FixtureRequest) -> AsyncIterator[LocalExecutor]:
    """One warm pool per test module and mode (starting workers is the slow part)."""
    sandbox = LocalExecutor(pool_size=2, **executor_options(request.param))
    await sandbox.start()
    yield sandbox
    await sandbox.aclose()


async def assert_serves_normal_call(sandbox: LocalExecutor) -> None:
    """The pool still answers an ordinary program correctly."""
    result = await sandbox.run(NORMAL)
    assert result.ok, result
    assert result.stdout == "Hello\n"
    assert result.soup_parses == 1


def _process_table() -> dict[int, tuple[int, int, int, bytes]]:
    """pid -> (parent pid, session id, uid, command line)."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            uid = entry.stat().st_uid
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # exited while we looked
        table[int(entry.name)] = (int(fields[1]), int(fields[3]), uid, cmdline)
    return table


def _is_worker(cmdline: bytes) -> bool:
    return b"bs4_env.sandbox.worker" in cmdline


def sandbox_processes(marker: str | None = None) -> list[int]:
    """Sandbox workers and calls of this test process, or of the executor whose temp root is
    ``marker`` (every worker's and call's command line names it); other people's sandboxes on
    the same machine never count."""
    table = _process_table()
    if marker is not None:
        return [pid for pid, row in table.items() if marker.encode() in row[3]]
    mine = _descendants(table, os.getpid())
    return [pid for pid in mine if _is_worker(table[pid][3])]


def call_processes(uid_base: int = DEFAULT_UID_BASE, span: int = 100) -> list[int]:
    """Processes of calls started from this test process (not the workers): anything below
    it running as a sandbox uid, or below a worker in a session of its own (every call starts
    one; a worker shares its root's). Orphans reparent to a worker (PID 1 of its namespace,
    or a child subreaper), so they stay below this process."""
    table = _process_table()
    mine = _descendants(table, os.getpid())
    roots = {pid for pid in mine if _is_worker(table[pid][3])
             and not _is_worker(table.get(table[pid][0], (0, 0, 0, b""))[3])}  # fmt: skip
    found = []
    for pid in mine:
        ppid, sid, uid, _ = table[pid]
        ancestor = ppid
        while ancestor in table and ancestor not in roots:
            ancestor = table[ancestor][0]
        in_call = ancestor in roots and sid != table[ancestor][1]
        if in_call or uid_base <= uid < uid_base + span:
            found.append(pid)
    return found


def _descendants(table: dict[int, tuple[int, int, int, bytes]], root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, row in table.items():
        children.setdefault(row[0], []).append(pid)
    found, stack = set(), [root]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


async def wait_until_no_call_processes(timeout_s: float = 3.0) -> list[int]:
    """Call processes that survive ``timeout_s``."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        left = call_processes()
        if not left or asyncio.get_running_loop().time() > deadline:
            return left
        await asyncio.sleep(0.05)


def output(result: ExecResult) -> str:
    return result.stdout + result.stderr
