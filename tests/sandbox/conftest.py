"""Shared fixtures for the sandbox tests: a warm executor, fake secrets, process listing."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

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


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def executor() -> AsyncIterator[LocalExecutor]:
    """One warm pool per test module (starting workers is the slow part)."""
    sandbox = LocalExecutor(pool_size=2)
    await sandbox.start()
    yield sandbox
    await sandbox.aclose()


async def assert_serves_normal_call(sandbox: LocalExecutor) -> None:
    """The pool still answers an ordinary program correctly."""
    result = await sandbox.run(NORMAL)
    assert result.ok, result
    assert result.stdout == "Hello\n"
    assert result.soup_parses == 1


def sandbox_processes(uid_base: int = DEFAULT_UID_BASE, span: int = 100) -> list[int]:
    """Host pids of anything still running as a sandbox uid or as a sandbox worker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            uid = entry.stat().st_uid
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # exited while we looked
        if uid_base <= uid < uid_base + span or b"bs4_env.sandbox.worker" in cmdline:
            found.append(int(entry.name))
    return found


async def wait_until_no_call_processes(timeout_s: float = 3.0) -> list[int]:
    """Sandbox-uid processes that survive ``timeout_s`` (workers themselves run as root)."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        left = [p for p in sandbox_processes() if _uid(p) != 0]
        if not left or asyncio.get_running_loop().time() > deadline:
            return left
        await asyncio.sleep(0.05)


def _uid(pid: int) -> int:
    try:
        return Path(f"/proc/{pid}").stat().st_uid
    except OSError:
        return -1


def output(result: ExecResult) -> str:
    return result.stdout + result.stderr
