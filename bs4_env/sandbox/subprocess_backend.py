"""A plain subprocess-per-call backend: a fresh isolated interpreter per program.

Simple and portable, but it pays interpreter start-up and ``import bs4`` on every call and
isolates only by process (a scrubbed environment, ``-I``, a private temp directory, a
process-group kill on timeout). The hardened warm-pool backend is the default for training.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import sys
import tempfile
import time
from pathlib import Path

from bs4_env.sandbox.base import ExecRequest, ExecResult, Executor, truncation_marker
from bs4_env.sandbox.protocol import REPORT_CAP, Section, parse_report

RUNNER = Path(__file__).with_name("runner.py")
_SAFE_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}


async def _read_capped(stream: asyncio.StreamReader, limit: int) -> tuple[str, int]:
    """Keep the first ``limit`` bytes, count (and discard) the rest, never buffer unboundedly."""
    kept = bytearray()
    total = 0
    while chunk := await stream.read(65536):
        total += len(chunk)
        if len(kept) < limit:
            kept.extend(chunk[: limit - len(kept)])
    dropped = total - len(kept)
    text = kept.decode("utf-8", errors="replace")
    return (text + truncation_marker(dropped) if dropped else text), dropped


class SubprocessExecutor(Executor):
    """Runs each program in a new ``python -I`` child of this interpreter."""

    def __init__(self, python: str = sys.executable) -> None:
        self._python = python

    async def run(self, request: ExecRequest) -> ExecResult:
        started = time.perf_counter()
        read_fd, write_fd = os.pipe()
        with tempfile.TemporaryDirectory(prefix="bs4env-") as workdir:
            try:
                proc = await asyncio.create_subprocess_exec(
                    self._python,
                    "-I",
                    str(RUNNER),
                    str(write_fd),
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                    cwd=workdir,
                    env={**_SAFE_ENV, "HOME": workdir, "TMPDIR": workdir},
                    pass_fds=(write_fd,),
                    start_new_session=True,
                )
            except OSError as error:
                os.close(read_fd)
                return ExecResult("", "", None, False, 0.0, infra_error=f"spawn failed: {error}")
            finally:
                os.close(write_fd)  # the child holds its own copy
            key = secrets.token_hex(16)
            payload = json.dumps(
                {"code": request.code, "html": request.html, "query": request.query, "key": key}
            )
            timed_out = False
            try:
                (stdout, out_dropped), (stderr, err_dropped), _ = await asyncio.wait_for(
                    asyncio.gather(
                        _read_capped(_stream(proc.stdout), request.max_output_bytes),
                        _read_capped(_stream(proc.stderr), request.max_output_bytes),
                        _feed(proc, payload.encode()),
                    ),
                    timeout=request.timeout_s,
                )
                await asyncio.wait_for(proc.wait(), timeout=request.timeout_s)
            except TimeoutError:
                timed_out = True
                stdout, stderr, out_dropped, err_dropped = "", "", 0, 0
            finally:
                _kill_group(proc.pid)
                await proc.wait()
            report = _read_report(read_fd, key)
        return ExecResult(
            stdout=stdout,
            stderr=stderr,
            exit_code=None if timed_out else proc.returncode,
            timed_out=timed_out,
            duration_s=time.perf_counter() - started,
            stdout_truncated_bytes=out_dropped,
            stderr_truncated_bytes=err_dropped,
            soup_parses=report,
        )


def _stream(stream: asyncio.StreamReader | None) -> asyncio.StreamReader:
    if stream is None:
        raise RuntimeError("child process has no pipe")
    return stream


async def _feed(proc: asyncio.subprocess.Process, data: bytes) -> None:
    if proc.stdin is None:
        raise RuntimeError("child process has no stdin pipe")
    try:
        proc.stdin.write(data)
        await proc.stdin.drain()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the child exited before reading its request; its exit status says why
    finally:
        proc.stdin.close()


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # already gone: nothing left to kill
        os.killpg(pid, signal.SIGKILL)


def _read_report(fd: int, key: str) -> int:
    """The parse count from the report pipe (0 unless exactly one keyed report)."""
    os.set_blocking(fd, False)
    try:
        raw = os.read(fd, REPORT_CAP + 1)
    except BlockingIOError:
        raw = b""
    finally:
        os.close(fd)
    return parse_report(Section(raw[:REPORT_CAP], max(0, len(raw) - REPORT_CAP)), key)
