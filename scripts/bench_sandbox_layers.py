"""What each per-call isolation layer costs: run by ``bench_sandbox.py``, or on its own.

Builds the same warm template a sandbox worker forks from (``template.build_template``, in
the worker's namespaces when run as root), then forks ``--samples`` children per stage, where
stage k applies the first k steps of ``call_layers.STEPS`` (the real functions, in the real
order) and exits; the last two stages also run a program that does not parse and one that
parses a small page. Stages are interleaved over ``--rounds`` rounds (medians reported), so a
change in the machine's load hits every stage alike. Prints, per stage, CPU ms per call of the
child (``RUSAGE_CHILDREN``) and of the forking template (``RUSAGE_SELF``), wall ms, the child's
page faults, and what the stage adds to the one before. Not included (the full benchmark
measures them with the call): the call's descriptor set-up, payload and output pipes, the
worker's supervision and the host's side.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

from bs4_env.sandbox import call_layers, isolation, program, template
from bs4_env.sandbox import syscalls as sc

NO_PARSE = "print(len(HTML))"
PARSE = "print(make_soup().title.string)"
SMALL = "<html><head><title>Hello</title></head><body><p class='x'>hi</p></body></html>"
TIMEOUT_S = 10.0


def _usage(who: int) -> tuple[float, int]:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime, usage.ru_minflt


def _stage(
    setup: isolation.WorkerSetup, steps: int, code: str | None, devnull: int
) -> Callable[[], None]:
    """What the child of one stage does before it exits."""
    limits = isolation.Limits()

    def child() -> None:
        for _, step in call_layers.STEPS[:steps]:
            step(setup, TIMEOUT_S, limits)
        if code is not None:
            os.dup2(devnull, 1)
            program.run_program(code, SMALL, "", "k" * 32, report_fd=devnull)

    return child


def _measure(child: Callable[[], None], samples: int) -> tuple[float, float, float, float]:
    """(child CPU ms, parent CPU ms, wall ms, child page faults) per call."""
    kids0, self0 = _usage(resource.RUSAGE_CHILDREN), _usage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    for _ in range(samples):
        pid = sc.fork_bare()  # as the worker forks its calls
        if pid == 0:
            status = 0
            try:
                child()
            except BaseException as error:  # reported by the parent, which stops the bench
                os.write(2, f"stage failed: {error!r}\n".encode())
                status = 1
            finally:
                os._exit(status)
        _, status = os.waitpid(pid, 0)
        if status:
            raise RuntimeError(f"a benchmark child failed (status {status})")
    wall = time.perf_counter() - started
    kids1, self1 = _usage(resource.RUSAGE_CHILDREN), _usage(resource.RUSAGE_SELF)
    return ((kids1[0] - kids0[0]) * 1e3 / samples, (self1[0] - self0[0]) * 1e3 / samples,
            wall * 1e3 / samples, (kids1[1] - kids0[1]) / samples)  # fmt: skip


def bench(uid: int, workdir: str, samples: int, rounds: int) -> None:
    """Build the template (as root: in the worker's namespaces), then measure every stage."""
    setup = template.build_template(uid, workdir, True, ())
    devnull = os.open(os.devnull, os.O_WRONLY)
    names = ["fork + exit", *(f"+ {name}" for name, _ in call_layers.STEPS),
             "+ program, no parse", "+ program, small page"]  # fmt: skip
    every = len(call_layers.STEPS)
    stages = [_stage(setup, k, None, devnull) for k in range(every + 1)]
    stages += [_stage(setup, every, code, devnull) for code in (NO_PARSE, PARSE)]
    huge, declined = template.freeze_template()
    inactive = [layer.name for layer in setup.layers if not layer.active]
    print(f"template: {huge >> 20} MiB in huge pages{f' ({declined})' if declined else ''}; "
          f"inactive layers: {', '.join(inactive) or 'none'}")  # fmt: skip
    runs: list[list[tuple[float, float, float, float]]] = [[] for _ in stages]
    for _ in range(rounds):
        for index, child in enumerate(stages):
            runs[index].append(_measure(child, samples))
    print(f"{'stage (cumulative)':<34}{'child CPU':>10}{'parent CPU':>11}{'total':>8}"
          f"{'adds':>8}{'wall':>8}{'faults':>8}   (ms per call, medians)")  # fmt: skip
    previous = None
    for name, run in zip(names, runs, strict=True):
        medians = (statistics.median(v) for v in zip(*run, strict=True))
        child_ms, parent_ms, wall_ms, faults = medians
        total = child_ms + parent_ms
        last = name.endswith("small page")  # compared with the no-parse stage, not after it
        adds = "" if previous is None or last else f"{total - previous:+.2f}"
        print(f"{name:<34}{child_ms:10.2f}{parent_ms:11.2f}{total:8.2f}{adds:>8}"
              f"{wall_ms:8.2f}{faults:8.0f}")  # fmt: skip
        previous = previous if last else total
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200, help="forks per stage and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--uid", type=int, default=60000, help="uid calls run as (root only)")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="bs4env-layer-bench-")
    # The template may enter a PID namespace (its outer process then only waits): a process of
    # our own removes the directory afterwards, whichever way the benchmark ends.
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            bench(args.uid, workdir, args.samples, args.rounds)
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    shutil.rmtree(workdir)
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
