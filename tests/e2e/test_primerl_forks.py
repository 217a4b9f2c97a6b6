"""``primerl_forks``: a forked child runs a script as ``python SCRIPT ARGS`` would.

The prime-rl e2e tests start ``evals``, ``rl``/``sft``, ``env-server`` and the driver this way,
so what a fresh interpreter gives a script must hold in the fork: argv, ``sys.path[0]``, the
environment given for that command (not the server's), its own session, stdin from
``/dev/null``, output in its log, ``atexit`` handlers run, the exit status of ``sys.exit``, an
uncaught exception or a signal, and a multiprocessing ``spawn`` child that re-runs the script
as ``__mp_main__``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from primerl_forks import ForkServer

SCRIPT = """
import atexit, json, multiprocessing, os, sys

def child(queue):
    queue.put(sys.modules["__mp_main__"].__file__)

if __name__ == "__main__":
    atexit.register(print, "atexit ran")
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=child, args=(queue,))
    proc.start()
    print(json.dumps({
        "argv": sys.argv, "path0": sys.path[0], "cwd": os.getcwd(),
        "session": os.getsid(0) == os.getpid(), "stdin": os.readlink("/proc/self/fd/0"),
        "preloaded": "csv" in sys.modules, "spawned_main": queue.get(),
        "env": os.environ.get("PRIMERL_FORKS_PROBE"),
    }))
    proc.join()
    action = sys.argv[1]
    if action == "raise":
        raise ValueError("boom")
    sys.exit(int(action) if action.isdigit() else action)
"""


@pytest.fixture(scope="module")
def forks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    work = tmp_path_factory.mktemp("forks")
    server = ForkServer(Path(sys.executable), ["csv"], dict(os.environ), work / "server.log")
    yield server
    server.close()


@pytest.mark.parametrize(
    ("action", "code", "stderr"), [("0", 0, ""), ("3", 3, ""), ("raise", 1, "ValueError: boom"),
                                   ("bye", 1, "bye")],
)  # fmt: skip
def test_a_fork_runs_a_script_as_the_interpreter_would(
    forks: ForkServer, tmp_path: Path, action: str, code: int, stderr: str
) -> None:
    script = tmp_path / "bin" / "tool"
    script.parent.mkdir()
    script.write_text(SCRIPT)
    log = tmp_path / "tool.log"
    env = {**os.environ, "PRIMERL_FORKS_PROBE": "given at start"}
    assert forks.run(script, [action, "x y"], env, log, tmp_path, timeout=120) == code
    lines = log.read_text().splitlines()
    seen = json.loads(next(line for line in lines if line.startswith("{")))
    assert seen == {
        "argv": [str(script), action, "x y"],
        "path0": str(script.parent),
        "cwd": str(tmp_path),
        "session": True,
        "stdin": os.devnull,
        "preloaded": True,
        "spawned_main": str(script),
        "env": "given at start",  # not the server's environment (started without it)
    }
    assert "atexit ran" in lines
    assert stderr in log.read_text()


def test_stop_ends_a_running_child(forks: ForkServer, tmp_path: Path) -> None:
    script = tmp_path / "sleeper"
    script.write_text("import time\ntime.sleep(600)\n")
    pid = forks.start(script, [], dict(os.environ), tmp_path / "sleeper.log", tmp_path)
    assert forks.wait(pid, 0.2) is None
    forks.stop([pid], grace=30)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
