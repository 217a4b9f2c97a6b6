"""Benchmark the sandbox backends: latency, concurrency, and resource stability.

Compares, on a small page, a ~75 KB and a ~300 KB page: (a) the program exec'd in this
process with bs4 pre-imported (the floor), (b) a fresh ``python`` per call
(``SubprocessExecutor``; not on the 300 KB page), (c) the warm fork-server pool
(``LocalExecutor``), (d) the same pool running a program that does not parse (the sandbox's
own per-call cost). Reports wall-clock p50/p95 and CPU per call (the CPU figure is robust to
a loaded machine; wall clock is not). Then 64 concurrent calls (throughput, the event loop's
longest stall, queue wait apart from run time), an ordinary call behind 8 sleeping ones
(queue wait with and without pool growth), and N calls in a row (processes, fds, RSS).
Prints figures only; it asserts nothing.

The sandbox's own cost is broken down twice: CPU per call split between the host (this
process), the worker (the warm template, which forks and supervises) and the call's own
process; and, from ``bench_sandbox_layers.py``, what each isolation layer adds to a call.
``--cost-only`` prints just those, ``--repeat`` times (with the in-process floor measured in
the same run each time), for quick before/after comparisons. ``--startup-only`` prints what a
new pool costs before and while it serves calls one at a time (a small eval, one rollout):
the first call's wall time from a cold executor, the workers alive after 20 calls in a row,
and the CPU of the pool's whole life, for pools of 1, 8 and 32 workers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import bs4

from bs4_env.sandbox.base import ExecRequest, ExecResult, Executor
from bs4_env.sandbox.local_backend import LocalExecutor
from bs4_env.sandbox.subprocess_backend import SubprocessExecutor

CODE = "print(make_soup().title.string)"
# The same call without parsing: the sandbox's own per-call cost, whatever the page size.
NO_PARSE = "print(len(HTML))"
SMALL = "<html><head><title>Hello</title></head><body><p class='x'>hi</p></body></html>"
ROW = "<tr><td class='name'>Item {i}</td><td class='price'>${i}.99</td><td>in stock</td></tr>"
LARGE = (
    "<html><head><title>Catalog</title></head><body><table>"
    + "".join(ROW.format(i=i) for i in range(900))
    + "</table></body></html>"
)
HUGE = LARGE.replace("</table>", "".join(ROW.format(i=i) for i in range(900, 3600)) + "</table>")
SLEEPER = "import time\ntime.sleep({seconds})"
CLK = os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def in_process(html: str, samples: int) -> tuple[list[float], float]:
    """The floor: compile and exec the same program here, bs4 already imported."""
    times, cpu0 = [], time.process_time()
    for _ in range(samples):
        started = time.perf_counter()
        namespace: dict[str, object] = {"__name__": "__main__", "HTML": html, "QUERY": ""}
        namespace["make_soup"] = lambda parser="html.parser": bs4.BeautifulSoup(html, parser)
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(CODE, "<model-code>", "exec"), namespace)
        times.append(time.perf_counter() - started)
    return times, (time.process_time() - cpu0) / samples


def _tree_cpu(pids: list[int]) -> float:
    """CPU seconds of processes including their reaped children (utime+stime+cutime+cstime)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15])
    return total / CLK


def descendants(root: int) -> list[int]:
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                kids = [int(k) for k in (task / "children").read_text().split()]
                found.extend(kids)
                stack.extend(kids)
    return found


async def timed_calls(
    executor: Executor, html: str, samples: int, code: str = CODE
) -> tuple[list[float], float]:
    """Sequential calls; CPU per call counts this process, the workers and their children."""
    request = ExecRequest(code, html)
    result = await executor.run(request)  # warm-up (and page cache fill)
    if not result.ok:
        raise RuntimeError(f"benchmark call failed: {result}")
    tree = descendants(os.getpid())
    cpu0 = time.process_time() + _tree_cpu(tree) + _reaped_cpu()
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        await executor.run(request)
        times.append(time.perf_counter() - started)
    cpu1 = time.process_time() + _tree_cpu(tree) + _reaped_cpu()
    return times, (cpu1 - cpu0) / samples


def _reaped_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class CpuSplit:
    """CPU ms per call: this process, the workers themselves, and the calls' processes."""

    host: float
    worker: float
    calls: float

    @property
    def total(self) -> float:
        return self.host + self.worker + self.calls


def _own_and_reaped(pids: list[int]) -> tuple[float, float]:
    """(utime+stime, cutime+cstime) seconds summed over ``pids``."""
    own = reaped = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        own += int(fields[11]) + int(fields[12])
        reaped += int(fields[13]) + int(fields[14])
    return own / CLK, reaped / CLK


async def split_calls(executor: LocalExecutor, html: str, samples: int, code: str) -> CpuSplit:
    """Sequential calls on one worker; where their CPU goes (kernel-accounted, so a
    worker's figure includes forking and the copy-on-write faults it takes)."""
    request = ExecRequest(code, html)
    for _ in range(10):  # warm-up
        if not (await executor.run(request)).ok:
            raise RuntimeError("benchmark call failed")
    # With a PID namespace the forking template is the worker's only child; without, the
    # worker itself.
    workers = [inner for pid in executor.worker_pids for inner in (_children(pid) or [pid])]
    host0, (own0, reaped0) = time.process_time(), _own_and_reaped(workers)
    for _ in range(samples):
        await executor.run(request)
    host1, (own1, reaped1) = time.process_time(), _own_and_reaped(workers)
    scale = 1e3 / samples
    return CpuSplit((host1 - host0) * scale, (own1 - own0) * scale, (reaped1 - reaped0) * scale)


def _children(pid: int) -> list[int]:
    return [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def layer_table(samples: int, rounds: int) -> str:
    """The per-layer table of ``bench_sandbox_layers.py`` (run as a workers' sibling)."""
    script = Path(__file__).with_name("bench_sandbox_layers.py")
    # Workers start with LD_BIND_NOW (``pool.WORKER_ENV``); so does this template.
    env = {**os.environ, "LD_BIND_NOW": "1"}
    command = [sys.executable, str(script), "--samples", str(samples), "--rounds", str(rounds)]
    return subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout


async def cost_only(samples: int, repeat: int, layers: bool) -> None:
    """Small page: the floor, a parsing call and a no-parse call, CPU split; then layers."""
    print(f"{'run':>3} {'floor':>7} {'parse: host':>12} {'worker':>7} {'call':>6} {'total':>6}"
          f" {'no parse: host':>15} {'worker':>7} {'call':>6} {'total':>6}"
          "   (CPU ms per call)")  # fmt: skip
    async with LocalExecutor(pool_size=1) as executor:
        assert isinstance(executor, LocalExecutor)
        await executor.start()
        for run in range(repeat):
            _, floor_cpu = in_process(SMALL, samples)
            parse = await split_calls(executor, SMALL, samples, CODE)
            bare = await split_calls(executor, SMALL, samples, NO_PARSE)
            print(f"{run + 1:>3} {floor_cpu * 1e3:7.2f} {parse.host:12.2f} {parse.worker:7.2f} "
                  f"{parse.calls:6.2f} {parse.total:6.2f} {bare.host:15.2f} {bare.worker:7.2f} "
                  f"{bare.calls:6.2f} {bare.total:6.2f}")  # fmt: skip
    if layers:
        print(layer_table(max(50, samples // 2), 3), end="")


async def concurrency(executor: LocalExecutor, calls: int) -> tuple[float, float, list[ExecResult]]:
    stall, stop = 0.0, asyncio.Event()

    async def ticker() -> None:
        nonlocal stall
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            stall = max(stall, now - last - 0.001)
            last = now

    tick = asyncio.ensure_future(ticker())
    started = time.perf_counter()
    pages = [SMALL if i % 2 else LARGE for i in range(calls)]
    results = await asyncio.gather(*(executor.run(ExecRequest(CODE, p)) for p in pages))
    elapsed = time.perf_counter() - started
    stop.set()
    await tick
    return calls / elapsed, stall, results


async def starvation(pool_size: int, grow: bool, sleepers: int, seconds: float) -> ExecResult:
    """An ordinary call issued behind ``sleepers`` calls that sleep ``seconds`` each."""
    ceiling = None if grow else pool_size
    async with LocalExecutor(pool_size=pool_size, max_pool_size=ceiling) as executor:
        assert isinstance(executor, LocalExecutor)
        await executor.start()
        slow = ExecRequest(SLEEPER.format(seconds=seconds), SMALL, timeout_s=seconds + 5)
        pending = [asyncio.ensure_future(executor.run(slow)) for _ in range(sleepers)]
        await asyncio.sleep(0.1)
        result = await executor.run(ExecRequest(CODE, SMALL))
        await asyncio.gather(*pending)
    return result


async def startup(pool_size: int, calls: int) -> tuple[float, int, float]:
    """A cold pool's first call (wall s), the workers alive after ``calls`` more calls in a
    row, and the CPU seconds of the pool's whole life (this process and its reaped workers)."""
    request = ExecRequest(CODE, SMALL)
    cpu0 = time.process_time() + _reaped_cpu()
    async with LocalExecutor(pool_size=pool_size) as executor:
        assert isinstance(executor, LocalExecutor)
        started = time.perf_counter()
        if not (await executor.run(request)).ok:
            raise RuntimeError("benchmark call failed")
        first = time.perf_counter() - started
        for _ in range(calls):
            await executor.run(request)
        workers = len(executor.worker_pids)
    return first, workers, time.process_time() + _reaped_cpu() - cpu0


async def startup_only(repeat: int) -> None:
    print(f"{'pool_size':>9} {'first call s':>13} {'workers after 20':>17} {'life CPU s':>11}")
    for _ in range(repeat):
        for pool_size in (1, 8, 32):
            first, workers, cpu = await startup(pool_size, 20)
            print(f"{pool_size:>9} {first:>13.3f} {workers:>17} {cpu:>11.2f}")


def footprint() -> tuple[int, int, float]:
    """Processes, open fds and RSS (MiB) of this process and all its descendants."""
    pids = [os.getpid(), *descendants(os.getpid())]
    fds, rss = 0, 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fds += len(os.listdir(f"/proc/{pid}/fd"))
            rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return len(pids), fds, rss * os.sysconf("SC_PAGE_SIZE") / 2**20


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=10_000, help="calls in the soak run")
    parser.add_argument("--samples", type=int, default=200, help="latency samples per case")
    parser.add_argument("--naive-samples", type=int, default=30, help="samples for (b)")
    parser.add_argument("--pool-size", type=int, default=4)
    parser.add_argument("--concurrent", type=int, default=64)
    parser.add_argument("--huge-samples", type=int, default=30, help="samples on 300 KB")
    parser.add_argument("--sleep", type=float, default=5.0, help="seconds each sleeper sleeps")
    parser.add_argument("--cost-only", action="store_true", help="only the per-call cost")
    parser.add_argument("--startup-only", action="store_true", help="only a new pool's cost")
    parser.add_argument("--repeat", type=int, default=3, help="runs of --cost-only/--startup-only")
    parser.add_argument("--no-layers", action="store_true", help="skip the per-layer table")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}  cores: {os.cpu_count()}")
    if args.cost_only or args.startup_only:
        if args.cost_only:
            await cost_only(args.samples, args.repeat, not args.no_layers)
        if args.startup_only:
            await startup_only(args.repeat)
        print(f"load average after: {os.getloadavg()}")
        return
    naive = SubprocessExecutor()
    async with LocalExecutor(pool_size=args.pool_size) as warm:
        assert isinstance(warm, LocalExecutor)
        await warm.start()
        print(f"{'page':>8} {'backend':<27} {'p50 ms':>8} {'p95 ms':>8} {'CPU ms/call':>12}")
        pages = (("small", SMALL, args.samples), ("75KB", LARGE, args.samples),
                 ("300KB", HUGE, args.huge_samples))  # fmt: skip
        for label, html, samples in pages:
            floor, floor_cpu = in_process(html, samples)
            slow, slow_cpu = ([], 0.0) if html is HUGE else await timed_calls(
                naive, html, args.naive_samples)  # fmt: skip
            fast, fast_cpu = await timed_calls(warm, html, samples)
            bare, bare_cpu = await timed_calls(warm, html, samples, NO_PARSE)
            rows = (("(a) in-process floor", floor, floor_cpu), ("(b) subprocess/call", slow,
                    slow_cpu), ("(c) LocalExecutor", fast, fast_cpu),
                    ("(d) LocalExecutor no parse", bare, bare_cpu))  # fmt: skip
            for name, times, cpu in rows:
                if times:
                    print(
                        f"{label:>8} {name:<27} {pct(times, 0.5) * 1e3:8.2f} "
                        f"{pct(times, 0.95) * 1e3:8.2f} {cpu * 1e3:12.2f}"
                    )
            overhead = (statistics.median(fast) - statistics.median(floor)) * 1e3
            speedup = (
                f"; speedup vs naive: p50 {statistics.median(slow) / statistics.median(fast):.1f}x"
                f", CPU {slow_cpu / fast_cpu:.1f}x"
                if slow
                else ""
            )
            print(
                f"{label:>8} overhead over floor: p50 {overhead:.2f} ms, "
                f"CPU {(fast_cpu - floor_cpu) * 1e3:.2f} ms{speedup}"
            )
        rate, stall, results = await concurrency(warm, args.concurrent)
        waits = [r.queue_wait_s for r in results]
        runs = [r.duration_s for r in results]
        print(
            f"{args.concurrent} concurrent calls on {args.pool_size} workers: "
            f"{sum(r.ok for r in results)} ok, {rate:.1f} calls/s, longest event-loop stall "
            f"{stall * 1e3:.1f} ms; queue wait p50 {pct(waits, 0.5) * 1e3:.0f} ms, max "
            f"{max(waits) * 1e3:.0f} ms; run time p50 {pct(runs, 0.5) * 1e3:.1f} ms"
        )
        before = footprint()
        request = ExecRequest(CODE, SMALL)
        started = time.perf_counter()
        failures = 0
        for _ in range(args.calls):
            failures += not (await warm.run(request)).ok
        elapsed = time.perf_counter() - started
        after = footprint()
        print(
            f"{args.calls} calls in a row: {elapsed:.1f} s ({args.calls / elapsed:.0f}/s), "
            f"{failures} failures"
        )
        for name, b, a in zip(("processes", "open fds", "RSS MiB"), before, after, strict=True):
            print(f"  {name:<10} start {b:>8.1f}  end {a:>8.1f}")
    print(f"after aclose: {len(descendants(os.getpid()))} descendant processes")
    for grow in (False, True):
        result = await starvation(args.pool_size, grow, 2 * args.pool_size, args.sleep)
        print(
            f"ordinary call behind {2 * args.pool_size} calls sleeping {args.sleep:g} s on "
            f"{args.pool_size} workers, pool growth {'on ' if grow else 'off'}: ok={result.ok}, "
            f"queue wait {result.queue_wait_s:.2f} s, run time {result.duration_s * 1e3:.1f} ms"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    asyncio.run(main())
