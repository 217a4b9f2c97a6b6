"""Core benchmark: generator throughput per archetype, grading time, train-index cost.

Prints figures only (no pass/fail): tasks/s per archetype, mean HTML size, grading time per
answer (correct, wrong and malformed answers), and the time and peak memory to build the
index of the full train split, next to the same for a list of every (archetype, seed) row
(the eager baseline, measured in the same run).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sized

from bs4_env.grading.rubric import ToolUsage, grade
from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for


def bench_generators(seeds: int) -> None:
    print(f"\n## Generator throughput ({seeds} seeds each)")
    print(f"{'archetype':28} {'tasks/s':>9} {'ms/task':>8} {'mean KB':>8}")
    total_time, total = 0.0, 0
    for spec in default_registry():
        sizes = []
        start = time.perf_counter()
        for index in range(seeds):
            sizes.append(len(build_task(spec.id, seed_for("train", index), "train").html))
        elapsed = time.perf_counter() - start
        total_time, total = total_time + elapsed, total + seeds
        print(
            f"{spec.id:28} {seeds / elapsed:9.0f} {1000 * elapsed / seeds:8.2f} "
            f"{statistics.mean(sizes) / 1024:8.1f}"
        )
    print(f"{'ALL':28} {total / total_time:9.0f} {1000 * total_time / total:8.2f}")


def bench_grading(seeds: int) -> None:
    usage = ToolUsage(tool_calls=2, soup_runs=1)
    timings: dict[str, list[float]] = {"correct": [], "wrong": [], "malformed": []}
    for spec in default_registry():
        for index in range(seeds):
            task = build_task(spec.id, seed_for("eval", index), "eval")
            answers = {
                "correct": json.dumps({"status": "ok", "answer": task.truth}),
                "wrong": json.dumps({"status": "ok", "answer": ["not", "it"]}),
                "malformed": "The answer is probably " + str(task.truth)[:50],
            }
            for kind, text in answers.items():
                start = time.perf_counter()
                grade(task, text, usage)
                timings[kind].append(time.perf_counter() - start)
    print(f"\n## Grading time per answer ({seeds} seeds x {len(default_registry())} archetypes)")
    for kind, values in timings.items():
        values.sort()
        p50, p99 = values[len(values) // 2], values[int(len(values) * 0.99)]
        print(f"{kind:10} p50 {p50 * 1e6:8.1f} us   p99 {p99 * 1e6:8.1f} us")


def _timed(build: Callable[[], Sized]) -> tuple[float, float, int]:
    """(seconds, peak MiB, length): time and memory measured in separate runs, because
    tracemalloc itself slows allocation-heavy code down several times."""
    start = time.perf_counter()
    length = len(build())
    seconds = time.perf_counter() - start
    tracemalloc.start()
    build()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak / 2**20, length


def bench_index() -> None:
    print("\n## Full train split index (target: < 1 s, < 100 MB)")
    config = DatasetConfig(split="train", mode="all")
    lazy_s, lazy_mib, rows = _timed(lambda: build_rows(config))
    eager_s, eager_mib, _ = _timed(lambda: list(build_rows(config)))
    print(f"rows: {rows:,}")
    print(f"lazy index : {lazy_s * 1000:9.2f} ms   peak {lazy_mib:9.3f} MiB")
    print(f"eager list : {eager_s * 1000:9.2f} ms   peak {eager_mib:9.3f} MiB  (baseline)")
    print(
        f"ratio      : {eager_s / max(lazy_s, 1e-9):9.0f}x faster, "
        f"{eager_mib / max(lazy_mib, 1e-6):.0f}x less memory"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=200, help="seeds per archetype")
    args = parser.parse_args()
    bench_generators(args.seeds)
    bench_grading(max(1, args.seeds // 4))
    bench_index()


if __name__ == "__main__":
    main()
