"""Start prime-rl's commands as forks of one interpreter that imported prime-rl once.

    python primerl_forks.py MODULE...    (run with the prime-rl venv; ``ForkServer`` starts it)

The server imports each MODULE (``prime_rl.entrypoints.env_server``: what ``bin/env-server``
imports, which holds nearly every module ``rl``, ``sft``, ``evals`` and the orchestrator's
``Env`` classes import too), then answers JSON lines on stdin. ``start`` forks a child that
runs a script as ``python SCRIPT ARGS...`` would: ``runpy`` runs the file as ``__main__``
(so a multiprocessing ``spawn`` child re-runs that script, as it does under the real command),
``sys.argv`` and ``sys.path[0]`` as the interpreter sets them, the environment the caller
gives that command (as ``subprocess`` would: the test's own at that moment, e.g. a page cache
set after the server started), its own session, stdin from
``/dev/null``, stdout and stderr to a log, fresh numpy and torch seeds, and the interpreter's
own exit (non-daemon threads joined, ``atexit`` handlers run, the status ``sys.exit`` gives or 1
for an uncaught exception, its traceback in the log). ``wait`` reaps a child. Each child is
a process of its own running the command's console script, as prime-rl's launcher starts it;
only the import happened before the fork. Importing prime-rl (torch, wandb, verifiers) is ~7
CPU-s a process, most of a dry run's, an env server's or the driver's CPU.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import runpy
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()


def _run_child(script: str, args: list[str], env: dict[str, str], log: str, cwd: str) -> int:
    """In the fork: run as ``python SCRIPT ARGS`` with ``env`` in its own session; the exit
    status."""
    status = 1
    try:
        os.setsid()
        os.environ.clear()
        os.environ.update(env)
        null = os.open(os.devnull, os.O_RDONLY)
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(null)
        os.close(out)
        os.chdir(cwd)
        sys.argv = [script, *args]
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        _reseed()
        runpy.run_path(script, run_name="__main__")
        status = 0
    except SystemExit as stop:
        code = stop.code
        if code is None or isinstance(code, int):
            status = code or 0
        else:
            print(code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    return status


def _reseed() -> None:
    """Fresh global seeds, as a new process draws them (``random`` reseeds itself at fork)."""
    if "numpy.random" in sys.modules:
        sys.modules["numpy.random"].seed()
    if "torch" in sys.modules:
        sys.modules["torch"].seed()


def _returncode(status: int) -> int:
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def serve(modules: list[str]) -> None:
    # The protocol keeps the original stdout; anything printed while importing goes to stderr.
    reply = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for name in modules:
        __import__(name)
    # Keep the imported objects out of the children's collections: a collection touches every
    # object it tracks and so copies the whole heap into each fork (Python's gc docs advise
    # this before forking); a fresh process keeps nearly all of them for its lifetime too.
    gc.freeze()
    reply.write(json.dumps({"ready": len(sys.modules)}) + "\n")
    reply.flush()
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "start":
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                reply.close()  # stdin's pipe goes too: the child's fd 0 becomes /dev/null
                # Exit as the interpreter does after a script: threads joined, atexit run.
                sys.exit(_run_child(request["script"], request["args"], request["env"],
                                    request["log"], request["cwd"]))  # fmt: skip
            answer: dict[str, Any] = {"pid": pid}
        elif request["op"] == "wait":
            answer = {"returncode": _wait(request["pid"], request["timeout"])}
        else:
            raise SystemExit(f"unknown op {request['op']!r}")
        reply.write(json.dumps(answer) + "\n")
        reply.flush()


def _wait(pid: int, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return _returncode(status)
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


class ForkServer:
    """Client side (in the test process): the server, started with ``python`` and ``env``."""

    def __init__(self, python: Path, modules: list[str], env: dict[str, str], log: Path) -> None:
        self._log = log.open("w")
        self._proc = subprocess.Popen(
            [str(python), str(HERE), *modules], env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self._log, text=True,
        )  # fmt: skip
        ready = self._read()
        if "ready" not in ready:
            raise RuntimeError(f"fork server did not start: {ready}")

    def _read(self) -> dict[str, Any]:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            self._proc.wait()
            raise RuntimeError(f"fork server exited {self._proc.returncode}; see {self._log.name}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        return self._read()

    def start(
        self, script: Path, args: list[str], env: dict[str, str], log: Path, cwd: Path
    ) -> int:
        """Fork ``python SCRIPT ARGS`` with ``env`` (own session, output to ``log``); its pid."""
        request = {"op": "start", "script": str(script), "args": args, "env": env,
                   "log": str(log), "cwd": str(cwd)}  # fmt: skip
        pid: int = self._ask(request)["pid"]
        return pid

    def wait(self, pid: int, timeout: float) -> int | None:
        """The child's return code (negative: killed by that signal), None if still running."""
        code: int | None = self._ask({"op": "wait", "pid": pid, "timeout": timeout})["returncode"]
        return code

    def run(
        self,
        script: Path,
        args: list[str],
        env: dict[str, str],
        log: Path,
        cwd: Path,
        timeout: float,
    ) -> int:
        """Start a child and wait for it; killed (its session) past ``timeout``."""
        pid = self.start(script, args, env, log, cwd)
        code = self.wait(pid, timeout)
        if code is None:
            self.stop([pid])
            raise TimeoutError(f"{script.name} {args[:3]} ran past {timeout} s; see {log}")
        return code

    def stop(self, pids: list[int], grace: float = 20) -> None:
        """SIGTERM each child's session, SIGKILL those still running ``grace`` seconds later;
        reap them."""
        for pid in pids:
            _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for pid in pids:
            if self.wait(pid, max(0.1, deadline - time.monotonic())) is None:
                _signal(pid, signal.SIGKILL)
                self.wait(pid, 60)

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=60)
        self._log.close()


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # the session has already ended
        os.killpg(pid, signum)


if __name__ == "__main__":
    serve(sys.argv[1:])
