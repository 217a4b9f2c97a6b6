"""Train-stream draw latency and resume time, as prime-rl's orchestrator calls them.

prime-rl (pinned commit) draws every train task with ``next(curriculum.sampler)`` inside its
dispatcher's event loop, and on resume ``StandardSampler.load_state_dict`` calls ``next()``
``cursor`` times on a fresh stream. This script builds a config's train source the way
``Env.start`` does (``vf.load_taskset``, then ``iter`` of the ``INFINITE`` taskset) and runs
prime-rl's own ``Curriculum`` over it:

* **draws**: ``--draws`` calls of ``next(sampler)``, each timed: p50 / p99 / max in ms;
* **resume**: a fresh stream and sampler, ``load_state_dict`` with ``--cursor`` (default
  20,000, the order a 2x8 H100 run reaches): wall seconds;
* **memory**: the process RSS before and after (flat: the stream keeps no rows).

The baseline, measured in the same run, is the generating path: the same rows, each task's
data built by generating its page first (``task_data``, what finite selections still do and
what the train stream did before it yielded lightweight rows). Its resume is measured on
``--before-cursor`` draws and extrapolated to ``--cursor`` (printed as an estimate).

    .venv/bin/python scripts/bench_train_stream.py [--config FILE] [--draws N] [--cursor N]

Re-executes itself with the prime-rl venv's interpreter when prime-rl is not importable.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import statistics
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIG = ROOT / "configs" / "prime-rl" / "qwen25-coder-7b-lora-2x8xh100.toml"


def rss_mib() -> float:
    """The process's current resident set size."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 2**20


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def train_source(config: Path) -> Any:
    from prime_rl.configs.orchestrator import TrainSourceConfig

    raw = tomllib.loads(config.read_text(encoding="utf-8"))
    return TrainSourceConfig.model_validate(raw["orchestrator"]["train"]["source"][0])


def stream(source: Any) -> Iterator[Any]:
    """The train tasks as ``Env.start`` streams them (the class must be ``INFINITE``)."""
    import verifiers.v1 as vf

    taskset = vf.load_taskset(source.env.taskset)
    if not type(taskset).INFINITE:
        raise SystemExit(f"{source.resolved_name}: the train taskset is not INFINITE")
    return iter(taskset)


def generating_stream(source: Any) -> Iterator[Any]:
    """The baseline: the same rows, each task's data built by generating the task first."""
    import verifiers.v1 as vf

    from bs4_env.integrations.verifiers_v1.task import BS4Task
    from bs4_env.integrations.verifiers_v1.taskset import task_data
    from bs4_env.tasks.modes import build_rows

    taskset = vf.load_taskset(source.env.taskset)
    rows = build_rows(taskset.config.dataset_config())
    return (BS4Task(task_data(row), taskset.config.task) for row in itertools.cycle(rows))


def sampler(source: Any, tasks: Iterator[Any]) -> Any:
    """prime-rl's sampler over ``tasks``, with this process's task cache emptied first (each
    measurement starts cold, as a fresh orchestrator does)."""
    from prime_rl.orchestrator.curriculum import Curriculum

    from bs4_env.integrations.verifiers_v1.state import cached_task

    cached_task.cache_clear()
    gc.collect()
    return Curriculum(source.curriculum, tasks).sampler


def draws(source: Any, tasks: Iterator[Any], n: int) -> list[float]:
    """Seconds of each of ``n`` draws, sorted."""
    sample = sampler(source, tasks)
    times = []
    for _ in range(n):
        started = time.perf_counter()
        next(sample)
        times.append(time.perf_counter() - started)
    return sorted(times)


def resume(source: Any, tasks: Iterator[Any], cursor: int) -> float:
    """Seconds ``StandardSampler.load_state_dict`` takes to skip ``cursor`` tasks."""
    sample = sampler(source, tasks)
    started = time.perf_counter()
    sample.load_state_dict({"cursor": cursor})
    return time.perf_counter() - started


def report(label: str, times: list[float], resume_s: float, resumed: int, cursor: int) -> None:
    ms = [t * 1000 for t in times]
    estimate = resume_s * cursor / resumed
    resume_text = (
        f"{resume_s:.3f} s"
        if resumed == cursor
        else f"{resume_s:.2f} s for {resumed:,} -> ~{estimate:.0f} s estimated for {cursor:,}"
    )
    print(
        f"  {label:10} draw p50 {statistics.median(ms):.4f} ms  p99 {percentile(ms, 0.99):.4f} ms"
        f"  max {ms[-1]:.3f} ms  ({len(ms):,} draws);  resume {resume_text}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG)
    parser.add_argument("--draws", type=int, default=5000, help="timed draws (after)")
    parser.add_argument("--before-draws", type=int, default=500, help="timed draws (baseline)")
    parser.add_argument("--cursor", type=int, default=20_000, help="resume cursor")
    parser.add_argument("--before-cursor", type=int, default=500, help="baseline resume cursor")
    args = parser.parse_args()
    try:
        import prime_rl  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(ROOT / "scripts"))
        from bench_taskset_start import reexec_in_primerl_venv

        reexec_in_primerl_venv(__file__)
    sys.path.insert(0, str(ROOT))
    source = train_source(args.config)
    print(f"{args.config.name}: train source {source.resolved_name} through prime-rl's Curriculum")
    stream(source)  # imports and the registry load, outside every timing
    gc.collect()
    before_rss = rss_mib()
    after_times = draws(source, stream(source), args.draws)
    after_resume = resume(source, stream(source), args.cursor)
    gc.collect()
    after_rss = rss_mib()
    report("stream", after_times, after_resume, args.cursor, args.cursor)
    print(f"  {'':10} RSS {before_rss:.0f} MiB -> {after_rss:.0f} MiB after the draws and resume")
    base_times = draws(source, generating_stream(source), args.before_draws)
    base_resume = resume(source, generating_stream(source), args.before_cursor)
    report("generating", base_times, base_resume, args.before_cursor, args.cursor)
    p99 = percentile(base_times, 0.99) / percentile(after_times, 0.99)
    resumed = base_resume * args.cursor / args.before_cursor / after_resume
    print(f"  ratios: p99 draw {p99:,.0f}x faster; resume {resumed:,.0f}x faster (estimated)")


if __name__ == "__main__":
    main()
