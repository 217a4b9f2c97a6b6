"""A warm fork-server worker, started by ``pool.WorkerProcess`` with ``--uid N --workdir DIR``.

Builds the warm template once (``template``: bs4, lxml, html5lib and soupsieve imported,
every parser warmed, its own namespaces, see ``isolation``), then serves requests on
stdin/stdout. It reads only each request's limits and section sizes, forks, and the forked
child reads the payload (code, page, query) itself; output goes back by ``splice``. So every call
starts from a process image that never held another call's page, query, code or output.
The child applies the per-call layers (``call_layers``), reports on a setup channel that it
closes before model code runs, and runs the program through ``program.run_program``. Only
what the worker observes (wait status, deadline, that setup channel) decides an infra error.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import random
import signal
import sys

from bs4_env.sandbox import call_layers, cleanup, isolation, program, supervise, template
from bs4_env.sandbox import syscalls as sc
from bs4_env.sandbox.protocol import (
    ENCODING,
    MAX_PAYLOAD_BYTES,
    OUTPUT_SECTIONS,
    PAYLOAD_SECTIONS,
    Message,
    ProtocolError,
    read_exact_sync,
    read_frame_sync,
    reply_frame,
    sizes_of,
    write_all,
    write_frame_sync,
)

CHILD_SETUP_FAILED = 125
# The call's descriptors: 0 /dev/null, 1 stdout, 2 stderr, 3 report, 4 setup, 5 the payload.
_SETUP_FD, _PAYLOAD_FD = 4, 5
_HELD = range(3, 10)  # held on /dev/null by the worker: what it opens later lands above


class Worker:
    """The serving loop inside the namespace (PID 1 when a PID namespace is available)."""

    def __init__(self, setup: isolation.WorkerSetup, ctl_in: int, ctl_out: int) -> None:
        self.setup = setup
        self.huge_pages: tuple[int, str] = (0, "")
        self.ctl_in = ctl_in
        self.ctl_out = ctl_out
        self.devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
        if self.devnull < _HELD.stop:
            # A call places its descriptors with plain dup2s, which needs every source above.
            raise RuntimeError(f"descriptors {_HELD.start}-{_HELD.stop - 1} must stay held")
        self.pid = os.getpid()
        self.limits = isolation.Limits()  # built once: a call's child only reads it
        self.sinks = supervise.open_sinks(self.devnull)
        kept = setup.landlock.fds if setup.landlock else range(_PAYLOAD_FD + 1)
        self.close_ranges = (
            (_PAYLOAD_FD + 1, kept.start), (max(kept.stop, _PAYLOAD_FD + 1), 1 << 20)
        )  # fmt: skip
        """What a call closes: all but its own descriptors and Landlock's prepared ones."""
        # random's C seeding (from the OS), bound once; what os.fork's at-fork hook ran.
        self.reseed_random = super(random.Random, random._inst).seed
        random._inst.gauss_next = None  # type: ignore[attr-defined]  # the rest of random.seed

    def serve(self) -> None:
        """Answer requests until the host closes the pipe, says ``close``, or we lost sync."""
        layers = [layer.__dict__ for layer in self.setup.layers]
        namespaces = {kind: os.stat(f"/proc/self/ns/{kind}").st_ino for kind in ("ipc", "mnt")}
        hello = {"ready": True, "pid": os.getpid(), "layers": layers, "namespaces": namespaces,
                 "huge_pages": self.huge_pages}  # fmt: skip
        write_frame_sync(self.ctl_out, hello)
        while (request := read_frame_sync(self.ctl_in)) is not None:
            if request.get("op") == "close":
                break
            if not self.handle(request):
                break  # the request stream may be out of step: the host starts a fresh worker
        supervise.kill_all(self.setup.pid_namespace, None)

    def handle(self, request: Message) -> bool:
        """Run one call and send its reply; False when this worker must not serve again."""
        try:
            sizes = sizes_of(request, PAYLOAD_SECTIONS, MAX_PAYLOAD_BYTES)
            timeout_s, limit = float(request["timeout_s"]), int(request["max_output_bytes"])
        except (ProtocolError, KeyError, TypeError, ValueError) as error:
            self._reply_error(f"bad request: {error}", restart=True)
            return False
        pipes = supervise.CallPipes.open()
        sinks = self.sinks
        stdout, stderr, _ = sinks
        stdout.limit = stderr.limit = limit
        try:
            # The template is single-threaded (``freeze_template`` checked): Python's at-fork
            # hooks would only copy pages of ours (see ``syscalls.fork_bare``).
            pid = sc.fork_bare()
        except OSError as error:
            for fd in (*pipes.child_ends(), pipes.out_r, pipes.err_r, pipes.report_r,
                       pipes.setup_r):  # fmt: skip
                os.close(fd)
            self._skip_payload(sum(sizes))
            self._reply_error(f"fork failed: {error}", restart=False)
            return True
        if pid == 0:
            self._child(sizes, timeout_s, pipes)
        pipes.close_child_ends()
        outcome = supervise.supervise(pid, pipes, sinks, timeout_s, self.setup.pid_namespace)
        infra_error, in_step = _setup_verdict(outcome.setup, outcome.exit_code)
        leftovers = self._clear_workdir()
        restart = not in_step or bool(leftovers)
        try:
            write_all(self.ctl_out, reply_frame(
                outcome.exit_code, outcome.duration_s, infra_error, restart,
                [sink.kept for sink in sinks], [sink.dropped for sink in sinks],
            ))  # fmt: skip
            for sink in sinks:
                sink.send(self.ctl_out)
        finally:
            # Before the next fork: no call's output outlives its reply.
            for sink in sinks:
                sink.clear()
        if leftovers:
            print(f"[sandbox worker] call dir not clean: {leftovers[:3]}", file=sys.stderr)
        return not restart

    def _clear_workdir(self) -> list[str]:
        """Without a per-call tmpfs the call's directory is shared by calls: empty it."""
        if self.setup.call_mode != "none":
            return []  # the call's tmpfs went away with its mount namespace
        return cleanup.remove_tree(self.setup.workdir, keep_top=True)

    def _skip_payload(self, size: int) -> None:
        """Discard an unread payload without reading it into this process."""
        while size:
            moved = os.splice(self.ctl_in, self.devnull, min(size, 1 << 20))
            if not moved:
                return
            size -= moved

    def _reply_error(self, message: str, restart: bool) -> None:
        sizes = [0] * len(OUTPUT_SECTIONS)
        # Not ``reply_frame``: no call ran, so it did not time out either.
        write_frame_sync(self.ctl_out, {
            "exit_code": None, "timed_out": False, "duration_s": 0.0, "infra_error": message,
            "restart": restart, "sizes": sizes, "dropped": sizes,
        })  # fmt: skip

    def _child(self, sizes: list[int], timeout_s: float, pipes: supervise.CallPipes) -> None:
        """The forked call: read the payload, apply the layers, run the program; never returns."""
        setup_fd = pipes.setup_w
        try:
            self.reseed_random()  # as os.fork's hook did: no two calls share a random sequence
            os.setsid()
            # Every source is at 10 or above (``main`` holds 3-9), so placing never clobbers one.
            os.dup2(self.devnull, 0)
            os.dup2(pipes.out_w, 1)
            os.dup2(pipes.err_w, 2)
            os.dup2(pipes.report_w, 3)
            os.dup2(pipes.setup_w, _SETUP_FD)
            os.dup2(self.ctl_in, _PAYLOAD_FD)
            setup_fd = _SETUP_FD
            # The control pipes, everything else; Landlock's prepared rules until it ran.
            below, above = self.close_ranges
            os.closerange(*below)
            os.closerange(*above)
            code, html, query, key = _read_payload(sizes)
            os.close(_PAYLOAD_FD)
            os.write(_SETUP_FD, b"P")
            call_layers.apply_layers(self.setup, timeout_s, self.limits)
            # After the uid change (which clears it): die with the worker, whatever happens.
            sc.prctl(sc.PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != self.pid:
                raise OSError("the worker is gone")
            os.write(_SETUP_FD, b"K")
            os.close(_SETUP_FD)
        except BaseException as error:  # any setup failure must fail closed
            _write_setup_failure(setup_fd, error)
            os._exit(CHILD_SETUP_FAILED)
        status = CHILD_SETUP_FAILED
        try:
            status = program.run_program(code, html, query, key, report_fd=3)
        finally:
            os._exit(status & 0xFF)


def _read_payload(sizes: list[int]) -> tuple[str, str, str, str]:
    """The four payload sections: one read unless it is more than a pipe holds, decoded in
    place (straight-line: this runs in every call's process, where each object made copies
    a page)."""
    total = sizes[0] + sizes[1] + sizes[2] + sizes[3]
    data = os.read(_PAYLOAD_FD, total) if total else b""
    if len(data) < total:
        rest = read_exact_sync(_PAYLOAD_FD, total - len(data)) if data else None
        if rest is None:
            raise ProtocolError("payload ended early")
        data += rest
    view = memoryview(data)
    code_end = sizes[0]
    html_end = code_end + sizes[1]
    query_end = html_end + sizes[2]
    encoding, errors = ENCODING
    code = str(view[:code_end], encoding, errors)
    html = str(view[code_end:html_end], encoding, errors)
    query = str(view[html_end:query_end], encoding, errors)
    return code, html, query, str(view[query_end:], encoding, errors)


def _setup_verdict(setup: bytes, exit_code: int | None) -> tuple[str | None, bool]:
    """(infra error or None, whether the payload was consumed) from the setup channel."""
    if setup == b"PK":
        return None, True
    if setup.startswith(b"PE") or setup.startswith(b"E"):
        detail = setup[setup.index(b"E") + 1 :].decode("utf-8", "replace")
        return f"sandbox setup failed: {detail}", setup.startswith(b"P")
    how = "timed out" if exit_code is None else f"exit status {exit_code}"
    return f"sandbox call failed during setup ({how})", setup.startswith(b"P")


def _write_setup_failure(fd: int, error: BaseException) -> None:
    try:
        os.write(fd, b"E" + repr(error).encode("utf-8", "replace")[:2000])
    except OSError as write_error:
        os.write(2, f"[sandbox] setup failed ({error!r}); report lost: {write_error}".encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uid", type=int, default=65534, help="uid/gid model code runs as")
    parser.add_argument("--workdir", required=True, help="this worker's private directory")
    parser.add_argument("--user-namespaces", type=int, choices=(0, 1), default=1)
    args = parser.parse_args()
    # The control channel moves off 0/1 so no stray print can corrupt it.
    ctl_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 10)
    ctl_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 10)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    for fd in _HELD:
        os.dup2(0, fd)
    sc.prctl(sc.PR_SET_PDEATHSIG, signal.SIGKILL)  # die with the host
    setup = template.build_template(
        args.uid, args.workdir, bool(args.user_namespaces), (ctl_in, ctl_out)
    )
    worker = Worker(setup, ctl_in, ctl_out)
    worker.huge_pages = template.freeze_template()
    worker.serve()


if __name__ == "__main__":
    main()
