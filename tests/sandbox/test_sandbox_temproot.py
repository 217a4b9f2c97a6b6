"""Private temp roots: names never collide, leftovers are swept, cleanup survives any tree."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import time
from pathlib import Path

import pytest

from bs4_env.sandbox.cleanup import remove_tree
from bs4_env.sandbox.local_backend import LocalExecutor
from bs4_env.sandbox.temproot import TempRoot, TempRootError
from tests.sandbox.conftest import MODES, NORMAL, executor_options


@pytest.mark.parametrize("mode", MODES)
async def test_fresh_workers_serve_concurrent_calls(mode: str) -> None:
    """Eight ordinary calls at once on four brand-new workers all succeed."""
    async with LocalExecutor(pool_size=4, **executor_options(mode)) as sandbox:
        results = await asyncio.gather(*(sandbox.run(NORMAL) for _ in range(8)))
    assert all(r.ok and r.stdout == "Hello\n" for r in results), results


@pytest.mark.parametrize("mode", MODES)
async def test_leftover_directories_do_not_break_a_new_executor(mode: str) -> None:
    """Names a crashed run might leave in the shared temp dir cannot collide with ours."""
    made = []
    for name in ("call-1", "call-2"):
        path = Path(tempfile.gettempdir()) / name
        with contextlib.suppress(FileExistsError):
            path.mkdir()
            made.append(path)
    try:
        async with LocalExecutor(pool_size=1, **executor_options(mode)) as sandbox:
            first, second = await sandbox.run(NORMAL), await sandbox.run(NORMAL)
        assert first.ok and second.ok, (first, second)
    finally:
        for path in made:
            path.rmdir()


async def test_stale_roots_are_swept_and_our_root_removed_at_close(tmp_path: Path) -> None:
    parent = tmp_path / f"bs4env-{os.geteuid()}"
    parent.mkdir(mode=0o700)
    stale = parent / "exec-1-deadbeef"  # its executor died: nobody holds its lock
    deep = stale / "slot0-1"
    deep.mkdir(parents=True)
    (deep / "junk").write_text("x")
    (parent / "exec-1-deadbeef.lock").touch()
    orphan = parent / "exec-2-nolock"  # died before its lock existed
    orphan.mkdir()
    sandbox = LocalExecutor(pool_size=1, temp_parent=str(tmp_path))
    await sandbox.start()
    try:
        assert not stale.exists() and not orphan.exists()
        assert not (parent / "exec-1-deadbeef.lock").exists()
        root = sandbox.temp_root.path
        assert root is not None and root.is_dir() and root.parent == parent
        other = TempRoot(str(tmp_path))  # a second executor leaves a live root alone
        other.create()
        assert root.is_dir()
        assert (await sandbox.run(NORMAL)).ok
        other.remove()
    finally:
        await sandbox.aclose()
    assert not root.exists() and sorted(p.name for p in parent.iterdir()) == [".lock"]


def test_a_temp_parent_others_control_is_refused(tmp_path: Path) -> None:
    parent = tmp_path / f"bs4env-{os.geteuid()}"
    parent.mkdir(mode=0o700)
    parent.chmod(0o777)
    with pytest.raises(TempRootError, match="open to other users"):
        TempRoot(str(tmp_path)).create()
    parent.rmdir()
    parent.symlink_to(tmp_path)
    with pytest.raises(TempRootError, match="not a directory owned"):
        TempRoot(str(tmp_path)).create()


def test_remove_tree_handles_hostile_trees(tmp_path: Path) -> None:
    """3,000 nested directories, 20,000 files, a locked directory, a symlink out: all gone,
    nothing outside touched, without recursion and in bounded time."""
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    top = tmp_path / "call"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    for _ in range(3000):  # deeper than PATH_MAX allows as one path: walk by descriptor
        os.mkdir("d", dir_fd=fd)
        fd, parent = os.open("d", os.O_RDONLY, dir_fd=fd), fd
        os.close(parent)
    os.close(os.open("deepest", os.O_CREAT | os.O_WRONLY, dir_fd=fd))
    os.close(fd)
    (top / "link").symlink_to(outside)
    (top / "dirlink").symlink_to(tmp_path, target_is_directory=True)
    flat = top / "flat"
    flat.mkdir()
    for index in range(20_000):
        (flat / str(index)).touch()
    locked = top / "locked"
    locked.mkdir()
    (locked / "inside").touch()
    locked.chmod(0)
    started = time.monotonic()
    assert remove_tree(str(top)) == []
    assert time.monotonic() - started < 30
    assert not top.exists() and outside.read_text() == "keep me"
