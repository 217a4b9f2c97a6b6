"""Start time and memory of a config's tasksets as prime-rl's orchestrator loads them.

Runs prime-rl's own ``prime_rl.orchestrator.envs.Env.start`` (the pinned commit, from the venv
``scripts/primerl_venv.py`` builds) on every train and eval source of a training config, with
only the env-server health wait stubbed out: ``vf.load_taskset`` builds the taskset, then an
``INFINITE`` taskset class is streamed and any other is materialized with ``list(taskset)``.
Then it draws the first step's tasks (``batch_size / group_size``) through prime-rl's default
curriculum sampler, as ``TrainSource`` does. Memory is the process's peak RSS growth.

``--before N`` also times the finite path (``list`` over ``BeautifulSoupTaskset.load``, what the
train taskset did before it streamed) on the first N train rows, and extrapolates linearly to
the split's full row count (printed as an estimate: the whole list takes ~half an hour).

    .venv/bin/python scripts/bench_taskset_start.py [--config FILE] [--before N]

Re-executes itself with the prime-rl venv's interpreter when prime-rl is not importable.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import resource
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIG = ROOT / "configs" / "prime-rl" / "qwen3-4b-lora-2xh100.toml"


def reexec_in_primerl_venv(script: str) -> None:
    """Run ``script`` again (same arguments) under the prime-rl venv (which must be built)."""
    check = [sys.executable, str(ROOT / "scripts" / "primerl_venv.py"), "--check"]
    proc = subprocess.run(check, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr.strip() or "prime-rl venv missing")
    python = Path(proc.stdout.strip()) / "bin" / "python"
    os.execv(python, [str(python), script, *sys.argv[1:]])


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def start_source(kind: str, source: Any) -> tuple[Any, float, float, float]:
    """prime-rl's ``Env.start`` for one source: (env, wall s, CPU s, peak RSS growth MiB)."""
    from prime_rl.orchestrator.envs import Env, EvalEnv
    from verifiers.v1.serve import EnvClient

    async def no_server(self: Any, timeout: float = 0.0, interval: float = 0.0) -> None:
        return None

    EnvClient.wait_for_server_startup = no_server
    env = (
        EvalEnv(source, "tcp://127.0.0.1:1") if kind == "eval" else Env(source, "tcp://127.0.0.1:1")
    )
    rss, started, cpu = peak_rss_mib(), time.perf_counter(), time.process_time()
    await env.start()
    wall = time.perf_counter() - started
    return env, wall, time.process_time() - cpu, peak_rss_mib() - rss


def first_step(env: Any, source: Any, tasks_per_step: int) -> float:
    """Seconds to draw one step's tasks through prime-rl's curriculum sampler."""
    from prime_rl.orchestrator.curriculum import Curriculum

    started = time.perf_counter()
    tasks = env.tasks if env.num_tasks is None else list(env.tasks)
    curriculum = Curriculum(source.curriculum, tasks)
    for _ in range(tasks_per_step):
        next(curriculum.sampler)
    return time.perf_counter() - started


def before(source: Any, rows: int) -> None:
    """The finite path on the first ``rows`` train rows, extrapolated to the whole split."""
    import verifiers.v1 as vf

    from bs4_env.integrations.verifiers_v1.taskset import BeautifulSoupTaskset
    from bs4_env.tasks.modes import build_rows

    taskset = vf.load_taskset(source.env.taskset)
    total = len(build_rows(taskset.config.dataset_config()))
    rss, started, cpu = peak_rss_mib(), time.perf_counter(), time.process_time()
    prefix = list(itertools.islice(BeautifulSoupTaskset.load(taskset), rows))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    mib = peak_rss_mib() - rss
    scale = total / len(prefix)
    print(
        f"  before (finite list, measured on {len(prefix):,} of {total:,} rows): "
        f"{wall:.2f} s wall ({cpu:.2f} s CPU), +{mib:.0f} MiB; extrapolated to all rows: "
        f"{wall * scale / 60:.1f} min wall ({cpu * scale / 60:.1f} min CPU), "
        f"+{mib * scale / 1024:.2f} GiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG)
    parser.add_argument("--before", type=int, metavar="N", help="also time the finite path")
    args = parser.parse_args()
    try:
        import prime_rl  # noqa: F401
    except ImportError:
        reexec_in_primerl_venv(__file__)
    sys.path.insert(0, str(ROOT))
    from prime_rl.configs.orchestrator import EvalSourceConfig, TrainSourceConfig

    raw = tomllib.loads(args.config.read_text(encoding="utf-8"))
    orchestrator = raw["orchestrator"]
    tasks_per_step = orchestrator["batch_size"] // orchestrator["group_size"]
    import_rss = peak_rss_mib()
    print(
        f"{args.config.name}: prime-rl orchestrator Env.start, after imports {import_rss:.0f} MiB"
    )
    for kind, table in (("train", orchestrator["train"]), ("eval", orchestrator.get("eval", {}))):
        for raw_source in table.get("source", []):
            cls = TrainSourceConfig if kind == "train" else EvalSourceConfig
            source = cls.model_validate(raw_source)
            env, wall, cpu, mib = asyncio.run(start_source(kind, source))
            count = "infinite (streamed)" if env.num_tasks is None else f"{env.num_tasks:,} tasks"
            line = (
                f"  {kind} {source.resolved_name}: start {wall:.3f} s wall ({cpu:.3f} s CPU), "
                f"+{mib:.0f} MiB, {count}"
            )
            if kind == "train":
                step_s = first_step(env, source, tasks_per_step)
                line += f"; first step ({tasks_per_step} tasks) {step_s:.3f} s"
            else:
                line += f"; {len(env.examples)} eval examples kept"
            print(line, flush=True)
            if kind == "train" and args.before:
                before(source, args.before)


if __name__ == "__main__":
    main()
