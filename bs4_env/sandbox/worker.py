"""A warm fork-server worker: ``python -I -m bs4_env.sandbox.worker --uid N``.

Imports bs4, lxml, html5lib and soupsieve once and warms every parser, enters its own
namespaces (see ``isolation``), then serves length-prefixed requests on stdin/stdout. Each
call runs in a fresh child forked from this warm process, so nothing leaks between calls;
the child applies the per-call layers and runs the program through ``program.run_program``.
With a PID namespace the worker is PID 1 inside it, and after every call it kills and reaps
every other process in the namespace, so double-forked daemons die with their call.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import shutil
import signal
import sys
import time
from typing import Any

from bs4_env.sandbox import isolation, program, supervise
from bs4_env.sandbox import syscalls as sc
from bs4_env.sandbox.protocol import Message, PageCache, read_frame_sync, write_frame_sync

# Modules model code commonly imports; importing them before the fork makes them free.
_PRELOAD = (
    *("re", "json", "collections", "itertools", "functools", "html", "html.parser"),
    *("urllib.parse", "datetime", "math", "string", "typing", "dataclasses", "csv"),
    *("textwrap", "unicodedata", "decimal", "statistics", "operator", "copy", "pprint"),
    *("difflib", "fractions", "heapq", "bisect", "random", "enum", "lxml.etree", "lxml.html"),
    *("soupsieve", "html5lib", "bs4.builder._lxml", "bs4.builder._html5lib"),
)
_WARM_PAGE = (
    "<html><head><title>t</title></head><body><div class='a'><p id='x'>hi <b>there</b></p>"
    "<table><tr><td>1</td><td>2</td></tr></table><ul><li>a</li></ul></div></body></html>"
)
CHILD_SETUP_FAILED = 125


def warm() -> None:
    """Import and exercise every parser so forked children start with hot caches."""
    for name in _PRELOAD:
        __import__(name)
    import bs4

    for parser in program.PARSERS:
        soup = bs4.BeautifulSoup(_WARM_PAGE, parser)
        soup.select("div.a > p#x, td:nth-of-type(2), li:not(.z)")
        soup.find_all(["td", "li"], string=True)
        soup.get_text(" ", strip=True)


class Worker:
    """The serving loop inside the namespace (PID 1 when a PID namespace is available)."""

    def __init__(self, setup: isolation.WorkerSetup, ctl_in: int, ctl_out: int) -> None:
        self.setup = setup
        self.ctl_in = ctl_in
        self.ctl_out = ctl_out
        self.pages = PageCache()
        self.calls = 0
        self.devnull = os.open(os.devnull, os.O_RDWR)

    def serve(self) -> None:
        """Answer requests until the host closes the pipe or says ``close``."""
        layers = [layer.__dict__ for layer in self.setup.layers]
        write_frame_sync(self.ctl_out, {"ready": True, "pid": os.getpid(), "layers": layers})
        while (request := read_frame_sync(self.ctl_in)) is not None:
            if request.get("op") == "close":
                break
            write_frame_sync(self.ctl_out, self.handle(request))
        supervise.kill_all(self.setup.pid_namespace, None)

    def handle(self, request: Message) -> Message:
        key = str(request["page_key"])
        if "html" in request:
            self.pages.put(key, str(request["html"]))
        html = self.pages.get(key)
        if html is None:
            return {"cache_miss": True}
        self.calls += 1
        workdir = f"{isolation.SCRATCH}/call-{self.calls}"
        os.mkdir(workdir, 0o700)
        if self.setup.sandbox_uid is not None:
            os.chown(workdir, self.setup.sandbox_uid, self.setup.sandbox_uid)
        try:
            return self.run_child(request, html, workdir)
        finally:
            shutil.rmtree(workdir, onerror=_report_rmtree_error)

    def run_child(self, request: Message, html: str, workdir: str) -> Message:
        timeout_s = float(request["timeout_s"])
        pipes = supervise.Pipes.open()
        started = time.perf_counter()
        try:
            pid = os.fork()
        except OSError as error:
            pipes.close_all()
            return {"infra_error": f"fork failed: {error}"}
        if pid == 0:
            self._child(request, html, workdir, pipes)
        pipes.close_child_ends()
        outcome = supervise.supervise(
            pid, pipes, timeout_s, int(request["max_output_bytes"]), self.setup.pid_namespace
        )
        outcome["duration_s"] = time.perf_counter() - started
        return outcome

    def _child(self, request: Message, html: str, workdir: str, pipes: supervise.Pipes) -> None:
        """The forked child: never returns."""
        status = CHILD_SETUP_FAILED
        try:
            os.setsid()
            for fd, target in ((self.devnull, 0), (pipes.out_w, 1), (pipes.err_w, 2)):
                os.dup2(fd, target)
            os.dup2(pipes.report_w, 3)
            os.closerange(4, 1 << 16)  # the control pipe, pidfds, everything else
            isolation.apply_child_layers(
                self.setup, workdir, float(request["timeout_s"]), isolation.Limits()
            )
            _fresh_std_streams()
            _forget_host_modules()
            self.pages.clear()
        except BaseException as error:  # any setup failure must fail closed
            _write_setup_failure(error)
            os._exit(status)
        try:
            status = program.run_program(
                str(request["code"]), html, str(request["query"]), report_fd=3
            )
        finally:
            os._exit(status & 0xFF)


def _fresh_std_streams() -> None:
    """Point sys.std* at the call's pipes; surrogates become visible escapes, not crashes."""
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(
        io.FileIO(1, "w", closefd=False),
        encoding="utf-8",
        errors="backslashreplace",
        line_buffering=True,
    )
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False),
        encoding="utf-8",
        errors="backslashreplace",
        line_buffering=True,
    )
    # Model code that writes to sys.__stdout__ must reach the call's pipe too.
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr  # type: ignore[misc]


def _forget_host_modules() -> None:
    """Drop the project's modules so ``import bs4_env`` must re-read (hidden) files."""
    for name in [n for n in sys.modules if n.split(".")[0] in ("bs4_env", "beautiful_soup_env")]:
        del sys.modules[name]


def _write_setup_failure(error: BaseException) -> None:
    try:
        os.write(3, json.dumps({"infra_error": f"sandbox setup failed: {error!r}"}).encode())
    except OSError as write_error:
        os.write(2, f"[sandbox] setup failed ({error!r}); report lost: {write_error}".encode())


def _report_rmtree_error(function: Any, path: str, exc_info: Any) -> None:
    print(f"[sandbox worker] could not remove {path}: {exc_info[1]!r}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uid", type=int, default=65534, help="uid/gid model code runs as")
    args = parser.parse_args()
    # The control channel moves off 0/1 so no stray print can corrupt it.
    ctl_in, ctl_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    sc.prctl(sc.PR_SET_PDEATHSIG, signal.SIGKILL)  # die with the host
    warm()
    setup = isolation.WorkerSetup()
    isolation.enter_namespaces(setup)
    if setup.pid_namespace:
        inner = os.fork()
        if inner:
            # The outer process only waits: its exit means the whole namespace is gone.
            os.close(ctl_in)
            os.close(ctl_out)
            _, status = os.waitpid(inner, 0)
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
        sc.prctl(sc.PR_SET_PDEATHSIG, signal.SIGKILL)
    else:
        # Orphans reparent to us, so we can still find and kill them after each call.
        sc.prctl(sc.PR_SET_CHILD_SUBREAPER, 1)
    isolation.setup_filesystem(setup)
    isolation.probe_child_layers(setup, args.uid)
    # Warm objects move to the permanent generation: a child's garbage collections then
    # never touch (and copy-on-write) the parent's pages.
    gc.collect()
    gc.freeze()
    Worker(setup, ctl_in, ctl_out).serve()


if __name__ == "__main__":
    main()
