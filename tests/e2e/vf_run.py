"""Run the real ``vf-eval beautiful-soup-env`` against a scripted endpoint and read its traces.

Shared by the e2e tests and ``scripts/bench_vf.py``. The environment for the subprocess:

* ``.venv/bin`` first on PATH (``vf-eval`` and ``uv``; the null harness runs
  ``uv sync --script`` once per vf-eval process),
* ``UV_CACHE_DIR`` in a persistent place (under ``~/.cache/bs4env-uv``, or ``$BS4ENV_UV_CACHE``) so
  only the very first run on a machine downloads the harness's packages, resolved as of
  ``UV_EXCLUDE_NEWER`` (see there),
* a dummy API key in ``BS4ENV_SCRIPTED_KEY``.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bs4_env.episode.engine import TOOL_SPECS
from bs4_env.tools.arg_repair import repair_tool_arguments

BIN = Path(sys.executable).parent
KEY_VAR = "BS4ENV_SCRIPTED_KEY"
UV_EXCLUDE_NEWER = "2026-11-28T00:00:00Z"
"""verifiers' null harness resolves its chat program's packages (``openai``, ``httpx``, ...) when
it first runs; openai releases after this date (3.61 and later) break that program (it hands an
``httpx.Timeout`` to a client built on openai's own ``httpx2``: ``AsyncHttpxClientWrapper has no
attribute '_state'``). The e2e runs resolve as of the last date the pinned stacks were proven
(``UV_EXCLUDE_NEWER``), in a uv cache of that date's own, so an environment resolved without
the cut-off is never reused."""
UV_CACHE = (
    Path(os.environ.get("BS4ENV_UV_CACHE", Path.home() / ".cache" / "bs4env-uv"))
    / f"exclude-newer-{UV_EXCLUDE_NEWER[:10]}"
)
VF_SCRIPTS = Path.home() / ".cache" / "verifiers" / "runtimes" / "scripts"


def vf_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["UV_CACHE_DIR"] = str(UV_CACHE)
    env["UV_EXCLUDE_NEWER"] = UV_EXCLUDE_NEWER
    env[KEY_VAR] = "scripted"
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def vf_eval_command(
    model: str,
    base_url: str,
    out_dir: Path,
    run_name: str,
    n: int,
    concurrency: int,
    taskset: dict[str, str | int],
    harness: str = "null",
) -> list[str]:
    """The offline vf-eval command line (the same shape as the README's); ``harness`` is the
    agent's harness id (``null``: verifiers' own; ``beautiful-soup-env``: the package's)."""
    command = [
        str(BIN / "vf-eval"), "beautiful-soup-env",
        "--model", model,
        "--client.base-url", base_url,
        "--client.api-key-var", KEY_VAR,
        "--env.agent.harness.id", harness,
        "--env.agent.runtime.type", "subprocess",
        "--no-push", "--no-rich",
        "-n", str(n), "-r", "1", "-c", str(concurrency),
        "-o", str(out_dir), "--run.name", run_name, "--clean",
    ]  # fmt: skip
    for field, value in taskset.items():
        command += [f"--env.taskset.{field}", str(value)]
    return command


@dataclass
class VfRun:
    returncode: int
    output: str
    started_at: float
    wall_s: float
    episodes: list[dict[str, Any]]

    @property
    def traces(self) -> list[dict[str, Any]]:
        return [trace for episode in self.episodes for trace in episode["traces"]]


def run_vf_eval(command: list[str], out_dir: Path, run_name: str, timeout: float = 600) -> VfRun:
    """Run vf-eval; returns its exit status, output and the episodes of traces.jsonl."""
    started_at, started = time.time(), time.perf_counter()
    proc = subprocess.run(
        command, env=vf_env(), capture_output=True, text=True, timeout=timeout, check=False
    )
    wall = time.perf_counter() - started
    traces_path = out_dir / run_name / "traces.jsonl"
    episodes = []
    if traces_path.is_file():
        lines = traces_path.read_text(encoding="utf-8").splitlines()
        episodes = [json.loads(line) for line in lines if line.strip()]
    lock_harness_scripts()
    return VfRun(proc.returncode, proc.stdout + proc.stderr, started_at, wall, episodes)


def lock_harness_scripts() -> None:
    """Pin the null harness's PEP 723 script (``uv lock --script``) once it exists, so later
    ``uv sync --script`` runs resolve from the cache without the package index."""
    if not VF_SCRIPTS.is_dir():
        return
    # vf-eval runs end at once (threads of one fixture, xdist workers): one locker at a time.
    with UV_CACHE.with_name(UV_CACHE.name + ".lock").open("w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        for script in VF_SCRIPTS.glob("*.py"):
            if not script.with_name(script.name + ".lock").exists():
                subprocess.run(
                    [str(BIN / "uv"), "lock", "--script", str(script), "-q"],
                    env=vf_env(), capture_output=True, timeout=300, check=False,
                )  # fmt: skip


def total_reward(trace: dict[str, Any]) -> float:
    """traces.jsonl keeps rewards as {name: {score, weight}}; the total is the weighted sum."""
    return float(sum(r["score"] * r["weight"] for r in trace["rewards"].values() if r))


def trace_messages(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """The trace's messages in node order (a single branch with the null harness)."""
    return [node["message"] for node in trace["nodes"]]


def bad_arguments(messages: list[dict[str, Any]]) -> int:
    """The engine's count of calls refused for unrepairable arguments, from a transcript."""
    calls = [c for m in messages for c in m.get("tool_calls") or ()]
    return sum(
        repair_tool_arguments(TOOL_SPECS[c["function"]["name"]], c["function"]["arguments"])
        .arguments is None
        for c in calls
        if c["function"]["name"] in TOOL_SPECS
    )  # fmt: skip
