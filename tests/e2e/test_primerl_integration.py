"""prime-rl at its pinned commit (verifiers 0.3.1.dev62) runs this environment like the engine.

Everything runs from the cached prime-rl venv (``scripts/primerl_venv.py``) against the
scripted server, no GPU:

* One ``evals @ <toml>`` run (it spawns an ``env-server`` per source) with three sources: the
  bench prefix, one scripted policy per row (reference, abstain, no-code, malformed): every
  row's reward and score components equal the engine's own rollout of the same policy;
  malformed arguments get the engine's repair-or-instruct reply under the pinned, gate-less null
  harness; and the request bodies equal ``bs4-env eval``'s but for the pinned harness's known
  differences. A bring-your-own rows file of labelled pages: the engine's rewards. A strict
  endpoint under the package harness: repaired and refused calls score as the engine's.
* The launcher: ``rl @ <config> --dry-run`` for every main config and ``sft @ <config>
  --dry-run`` for every SFT config, then the env-server configs ``rl`` wrote are started as
  written (``env-server @ <config>``, as ``rl`` starts them) and driven through prime-rl's own
  orchestrator ``Env`` classes: the train taskset streams (``INFINITE``), the eval source keeps
  the bench prefix, and the traces equal the engine's.

``evals``, every launcher command, every env server and the driver is a process of its own
running its console script (or ``primerl_drive.py``) with its command line, forked from one
interpreter that imported prime-rl once (``primerl_forks.py``); the processes they spawn
themselves (``evals``' env servers, each env server's pool worker) start as prime-rl starts them.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from byo_rows import write_byo_rows
from primerl_forks import ForkServer
from primerl_run import (
    KEY_VAR,
    ROOT,
    PrimeRLMissing,
    free_port_block,
    install_checkout,
    primerl_env,
    primerl_venv,
)
from request_bodies import diff
from scripted_server import ROUTE_FIELD, Route, ScriptedServer, policy_for
from vf_run import BIN, bad_arguments

from bs4_env.episode.engine import Budgets
from bs4_env.episode.executors import make_executor
from bs4_env.episode.tool_text import without_timing
from bs4_env.evaluation.rollout import Rollout, run_rollout
from bs4_env.grading.rubric import TIMING_COMPONENTS
from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
from bs4_env.pages.sets import page_set
from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import Row
from tests.real_pages import missing_reason, page_cache_set, shared_cache
from tests.scripts_import import load_script

pytestmark = pytest.mark.integration

POLICIES = ("reference", "abstain", "nocode", "malformed")
ROWS = list(build_rows(DatasetConfig(split="bench", num_examples=2 * len(POLICIES))))
ASSIGNED = {(row.archetype_id, row.seed): POLICIES[i % len(POLICIES)] for i, row in enumerate(ROWS)}
BUDGETS = Budgets(max_tool_calls=8, timeout_s=10.0, max_output_bytes=3000)
MAX_TURNS, MAX_TOKENS = 10, 1024
# Every prime-rl main ``rl`` config of the registry (not inference or sft companions, not legacy).
CONFIGS = sorted(
    ROOT / entry["file"]
    for entry in json.loads((ROOT / "configs" / "registry.json").read_text())["configs"]
    if entry["kind"] == "rl" and entry["prime_rl"]["ref"] == "main"
)
# Every prime-rl main ``sft`` config of the registry.
SFT_CONFIGS = sorted(
    ROOT / entry["file"]
    for entry in json.loads((ROOT / "configs" / "registry.json").read_text())["configs"]
    if entry["kind"] == "sft" and entry["prime_rl"]["ref"] == "main"
)
DRIVEN_ROWS = 2  # tasks sent to each launcher-written env server
# Every cluster setting the multi-node config's header documents, as a user would pass it.
CLUSTER = {
    "partition": "bs4-test-partition",
    "account": "bs4-test-account",
    "nodelist": "bs4-node[1-2]",
    "exclude": "bs4-node3",
    "project-dir": "/opt/bs4-prime-rl",
    "shared-fs": "false",
    "pre-run-command": "echo bs4-pre-run",
}


@pytest.fixture(scope="module")
def venv() -> Path:
    try:
        path = primerl_venv()
    except PrimeRLMissing as error:
        pytest.fail(str(error), pytrace=False)
    install_checkout(path)
    return path


# What ``bin/env-server`` imports; it holds nearly every module ``evals``, ``rl``, ``sft`` and
# ``primerl_drive.py`` import, so each of them starts as a fork of one interpreter that imported
# it once (``primerl_forks.py``: each fork runs the command's own console script in a process
# of its own, with its own session, argv, log and exit status).
PRELOAD = "prime_rl.entrypoints.env_server"


@pytest.fixture(scope="module")
def forks(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    logs = tmp_path_factory.mktemp("forks")
    server = ForkServer(venv / "bin" / "python", [PRELOAD], primerl_env(venv), logs / "server.log")
    yield server
    server.close()


def _engine(
    rows: list[Row], policies: Mapping[tuple[str, int], str]
) -> dict[tuple[str, int], Rollout]:
    """The engine's own rollouts of each row's policy, with the configs' budgets."""

    async def play() -> list[Rollout]:
        async with make_executor("local", pool_size=2) as executor:
            tasks = [build_task(r.archetype_id, r.seed, r.split) for r in rows]
            return await asyncio.gather(
                *(
                    run_rollout(t, policy_for(policies[t.archetype_id, t.seed], t), executor,
                                BUDGETS, MAX_TURNS)
                    for t in tasks
                )
            )  # fmt: skip

    return {(r.task.archetype_id, r.task.seed): r for r in asyncio.run(play())}


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def _assert_matches_engine(trace: dict[str, Any], engine: Rollout) -> None:
    """A trace (as ``primerl_drive`` or the evals output gives it) equals the engine rollout."""
    key = (trace["archetype"], trace["seed"])
    assert trace["ok"], (key, trace["errors"])
    assert trace["reward"] == engine.score.reward, (key, trace)
    for name, value in engine.score.components.items():
        if name not in TIMING_COMPONENTS:
            assert trace["metrics"][name] == value, (key, name, trace["metrics"])
    assert trace["metrics"]["bad_arguments"] == bad_arguments(engine.messages), key
    replies = [without_timing(str(m["content"])) for m in engine.messages if m["role"] == "tool"]
    assert [without_timing(r) for r in trace["tool_replies"]] == replies, key
    assert trace["final"] == engine.final_text, key


def test_venv_pins_follow_prime_rls_lock() -> None:
    """The venv holds what prime-rl's uv.lock pins (no GPU-only parts), with its editable
    workspace members at their PyPI builds, and the CPU torch in place of the CUDA one."""
    module = load_script("primerl_venv")
    try:
        plan = module.plan()
    except module.VenvError as error:
        pytest.fail(str(error), pytrace=False)
    pins = dict(pin.split("==") for pin in plan.pins)
    assert len(pins) == len(plan.pins) > 100
    assert pins["verifiers"] == "0.3.1.dev62" and pins["renderers"] == "0.1.12"
    assert pins["mcp"] == "1.27.1" and pins["openai"] == "2.38.0"  # as uv.lock pins them
    assert not {"torch", "vllm", "prime-rl"} & set(pins)
    assert not [name for name in pins if name.startswith("nvidia-") and name != "nvidia-ml-py"]
    assert plan.torch == "torch==2.13.0+cpu"


# --- evals: the bench prefix, a bring-your-own rows file and a strict endpoint, one run ------
#
# One ``evals`` process with three eval sources (each spawns its own env server) against one
# scripted server: a run's CPU is mostly process start-up, and prime-rl runs several sources in
# one epoch. The byo and strict sources name a route in their sampling ``extra_body``, so the
# server plays each source's own policies (the strict source's rows are bench rows the bench
# source plays with other policies) and answers only the strict source as a strict endpoint; the
# bench source's requests carry nothing extra, since they are compared with ``bs4-env eval``'s.
# The bench source's env server keeps prime-rl's default (elastic) worker pool; the other two
# are served in-process (a static pool of one) to skip a spawned worker's start-up (the pooled
# path also runs in the launcher test below).

STRICT_POLICIES = ("malformed", "rawargs")
STRICT_ROWS = ROWS[:6]
STRICT_ASSIGNED = {
    (row.archetype_id, row.seed): STRICT_POLICIES[i % len(STRICT_POLICIES)]
    for i, row in enumerate(STRICT_ROWS)
}
BENCH, BYO, STRICT = "bs4-bench", "bs4-byo", "bs4-strict"


@dataclass
class EvalsOutput:
    """The one ``evals`` run: its exit status and output, each source's raw traces (by source
    name) and request bodies, and ``bs4-env eval``'s bodies over the bench rows."""

    returncode: int
    output: str
    raw: dict[str, list[dict[str, Any]]]
    bodies: dict[str, list[dict[str, Any]]]
    eval_bodies: list[dict[str, Any]]


@dataclass
class EvalsRun:
    traces: list[dict[str, Any]]
    raw: list[dict[str, Any]]
    evals_bodies: list[dict[str, Any]]
    eval_bodies: list[dict[str, Any]]
    output: str


def _source_toml(
    name: str, taskset: str, n: int, harness: str = "null", route: str = "", pooled: bool = True
) -> str:
    extra = f'extra_body = {{ {ROUTE_FIELD} = "{route}" }}' if route else ""
    serve = "" if pooled else '[eval.source.serve.pool]\ntype = "static"\nnum_workers = 1\n'
    return f"""
[[eval.source]]
name = "{name}"
num_examples = {n}

[eval.source.sampling]
temperature = 0.0
max_completion_tokens = {MAX_TOKENS}
{extra}

{serve}
# num_examples on the taskset too: prime-rl materializes a finite taskset whole first.
[eval.source.env.taskset]
id = "beautiful-soup-env"
{taskset}
num_examples = {n}
pool_size = 2
max_tool_calls = {BUDGETS.max_tool_calls}
max_output_bytes = {BUDGETS.max_output_bytes}
timeout_s = {BUDGETS.timeout_s}

[eval.source.env.agent]
max_turns = {MAX_TURNS}

[eval.source.env.agent.harness]
id = "{harness}"

[eval.source.env.agent.runtime]
type = "subprocess"
"""


def _evals_toml(base_url: str, out: Path, port: int, sources: list[str]) -> str:
    return f"""
model = "reference"
output_dir = "{out}"

[eval]
env_server_base_port = {port}

[eval.client]
base_url = "{base_url}"
api_key_var = "{KEY_VAR}"

# The scripted server has no vLLM /metrics: pin the concurrency.
[eval.concurrency]
min_inflight = 4
max_inflight = 4
""" + "".join(sources)


def _flatten(trace: dict[str, Any]) -> dict[str, Any]:
    messages = [node["message"] for node in trace["nodes"]]
    finals = [m for m in messages if m["role"] == "assistant"]
    return {
        "archetype": trace["task"]["data"]["archetype"],
        "seed": trace["task"]["data"]["seed"],
        "ok": trace["ok"],
        "errors": trace["errors"],
        "reward": sum(r["score"] * r["weight"] for r in trace["rewards"].values() if r),
        "metrics": trace["metrics"],
        "tool_replies": [_text(m["content"]) for m in messages if m["role"] == "tool"],
        "final": _text(finals[-1]["content"]) if finals else "",
        "pages": trace["task"]["data"].get("pages"),
    }


def _route(body: dict[str, Any]) -> str:
    extra = body.get("extra_body") or {}
    return {"": BENCH, "byo": BYO, "strict": STRICT}[extra.get(ROUTE_FIELD, "")]


@pytest.fixture(scope="module")
def evals_output(
    venv: Path, forks: ForkServer, tmp_path_factory: pytest.TempPathFactory
) -> EvalsOutput:
    """``evals @ <toml>`` over the three sources, then ``bs4-env eval`` over the bench rows
    against the same server (the bench route: the bench source's policies)."""
    work = tmp_path_factory.mktemp("evals")
    rows_file = write_byo_rows(work)
    pages = page_set(str(rows_file), DEFAULT_MAX_PAGE_BYTES)
    byo_tasks = [pages.task(index) for index in range(len(pages))]
    routes = {"byo": Route(), "strict": Route(STRICT_ASSIGNED, strict_history=True)}
    with ScriptedServer(ROWS, policies=ASSIGNED, tasks=byo_tasks, routes=routes) as server:
        sources = [
            _source_toml(BENCH, 'split = "bench"', len(ROWS)),
            _source_toml(BYO, f'pages = "{rows_file}"', len(byo_tasks), route="byo",
                         pooled=False),
            _source_toml(STRICT, 'split = "bench"', len(STRICT_ROWS),
                         harness="beautiful-soup-env", route="strict", pooled=False),
        ]  # fmt: skip
        config = work / "evals.toml"
        config.write_text(_evals_toml(server.base_url, work / "out", free_port_block(3), sources))
        # Three sources' rollouts in one run: thrice a single run's time limit.
        log = work / "evals.log"
        evals = venv / "bin" / "evals"
        returncode = forks.run(evals, ["@", str(config)], primerl_env(venv), log, work, 1800)
        output = log.read_text()
        logs = sorted((work / "out" / "logs").rglob("*.log"))
        output += "\n".join(f"== {p}\n{p.read_text()[-3000:]}" for p in logs)
        bodies: dict[str, list[dict[str, Any]]] = {BENCH: [], BYO: [], STRICT: []}
        for body in server.bodies:
            bodies[_route(body)].append(body)
        server.bodies = []
        eval_bodies: list[dict[str, Any]] = []
        if returncode == 0:
            eval_out = work / "eval.json"
            command = [
                str(BIN / "bs4-env"), "eval", "--model", "reference", "--base-url",
                server.base_url, "--api-key-var", KEY_VAR, "--split", "bench", "--num",
                str(len(ROWS)), "--max-tokens", str(MAX_TOKENS), "--temperature", "0",
                "--max-turns", str(MAX_TURNS), "--max-tool-calls", str(BUDGETS.max_tool_calls),
                "--max-output-bytes", str(BUDGETS.max_output_bytes),
                "--output", str(eval_out), "--quiet", "--no-resume",
            ]  # fmt: skip
            eval_proc = subprocess.run(
                command, capture_output=True, text=True, timeout=600,
                env={**os.environ, KEY_VAR: "x"},
            )  # fmt: skip
            assert eval_proc.returncode == 0, eval_proc.stderr[-4000:]
            eval_bodies = server.bodies
    raw: dict[str, list[dict[str, Any]]] = {BENCH: [], BYO: [], STRICT: []}
    path = work / "out" / "rollouts" / "step_0" / "eval" / "all" / "traces.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    for line in filter(None, lines):
        record = json.loads(line)
        raw[record["env"]["name"]].extend(record["traces"])
    return EvalsOutput(returncode, output, raw, bodies, eval_bodies)


@pytest.fixture(scope="module")
def evals_run(evals_output: EvalsOutput) -> EvalsRun:
    """The bench source: the run succeeded, its traces and request bodies."""
    assert evals_output.returncode == 0, evals_output.output[-8000:]
    raw = evals_output.raw[BENCH]
    return EvalsRun(
        [_flatten(t) for t in raw],
        raw,
        evals_output.bodies[BENCH],
        evals_output.eval_bodies,
        evals_output.output,
    )


@pytest.fixture(scope="module")
def evals_engine() -> dict[tuple[str, int], Rollout]:
    return _engine(ROWS, ASSIGNED)


def test_evals_ran_the_bench_prefix(evals_run: EvalsRun) -> None:
    """The bench source's traces are the bench prefix's rows, every policy among them."""
    keys = [(t["archetype"], t["seed"]) for t in evals_run.traces]
    assert sorted(keys) == sorted((r.archetype_id, r.seed) for r in ROWS)
    assert set(ASSIGNED.values()) == set(POLICIES)


def test_evals_rewards_and_components_equal_the_engine(
    evals_run: EvalsRun, evals_engine: dict[tuple[str, int], Rollout]
) -> None:
    for trace in evals_run.traces:
        _assert_matches_engine(trace, evals_engine[(trace["archetype"], trace["seed"])])


def test_malformed_arguments_get_the_engine_reply_under_the_pinned_harness(
    evals_run: EvalsRun, evals_engine: dict[tuple[str, int], Rollout]
) -> None:
    """The gate-less null harness answers bad JSON itself; the request hook replaces that
    answer with the engine's before the model sees it, and counts the call as the engine."""
    malformed = [t for t in evals_run.raw if ASSIGNED[_key(t)] == "malformed"]
    assert malformed
    for trace in malformed:
        first = next(n["message"] for n in trace["nodes"] if n["message"]["role"] == "tool")
        engine = evals_engine[_key(trace)]
        refusal = next(m for m in engine.messages if m["role"] == "tool")["content"]
        assert _text(first["content"]) == refusal
        assert not _text(first["content"]).startswith("error: invalid JSON in tool arguments")
        assert trace["metrics"]["bad_arguments"] == 1.0
        assert trace["metrics"]["tool_calls"] == 2.0
        assert trace["info"]["bs4"]["host_calls"] == 1
        assert trace["request_rewrites"], "the request hook rewrote the harness's reply"


def _key(trace: dict[str, Any]) -> tuple[str, int]:
    return trace["task"]["data"]["archetype"], trace["task"]["data"]["seed"]


def test_evals_requests_equal_bs4_env_eval_but_for_the_pinned_harness(evals_run: EvalsRun) -> None:
    """Tools, their order and schemas, prompts and sampling are the same as ``bs4-env eval``'s.
    Three differences are pinned: the pinned harness's tool messages carry no ``name``; a
    refused call goes back in its history as the model's raw text (``bs4-env eval`` sends what
    the engine ran, ``{}``); prime-rl adds its prefix-cache salt (the policy version) as
    ``extra_body``."""
    found = diff(evals_run.eval_bodies, evals_run.evals_bodies)
    unexpected = [
        d for d in found
        if not (d[1].endswith(".name") and d[2] == '"run_python"' and d[3] == "null")
        and not (d[1].endswith(".function.arguments") and d[2] == '"{}"')
        and not (d[1] == "body.extra_body" and d[3] == json.dumps({"cache_salt": "0"}))
    ]  # fmt: skip
    assert unexpected == [], "\n".join(map(str, unexpected))
    assert any(d[1].endswith(".name") for d in found), "the pinned harness now names tool messages"


# --- evals over a bring-your-own rows file of labelled pages --------------------------------


@pytest.fixture(scope="module")
def pages_evals(evals_output: EvalsOutput) -> list[dict[str, Any]]:
    """The ``pages = <rows file>`` source of the evals run (the reference policy): its traces."""
    assert evals_output.returncode == 0, evals_output.output[-8000:]
    return [_flatten(trace) for trace in evals_output.raw[BYO]]


def test_evals_over_byo_pages_equal_the_engine(pages_evals: list[dict[str, Any]]) -> None:
    """A rows file runs through prime-rl's ``evals`` with the engine's rewards (and the
    reference program solves every row)."""
    pages = page_set(str(Path(pages_evals[0]["pages"])), DEFAULT_MAX_PAGE_BYTES)
    tasks = [pages.task(index) for index in range(len(pages))]

    async def play() -> list[Rollout]:
        async with make_executor("local", pool_size=2) as executor:
            return await asyncio.gather(
                *(run_rollout(t, policy_for("reference", t), executor, BUDGETS, MAX_TURNS)
                  for t in tasks)
            )  # fmt: skip

    engine = {(r.task.archetype_id, r.task.seed): r for r in asyncio.run(play())}
    assert sorted((t["archetype"], t["seed"]) for t in pages_evals) == sorted(engine)
    for trace in pages_evals:
        _assert_matches_engine(trace, engine[(trace["archetype"], trace["seed"])])
        assert trace["reward"] == 1.0


# --- a strict endpoint: the history carries the arguments the engine ran ---------------------


@dataclass
class StrictRun:
    raw: list[dict[str, Any]]
    bodies: list[dict[str, Any]]
    output: str


@pytest.fixture(scope="module")
def strict_run(evals_output: EvalsOutput) -> StrictRun:
    """The strict source of the evals run: a strict endpoint (HTTP 500 for a history with
    tool-call arguments that are no JSON object, as llama.cpp and vLLM's chat preprocessing
    answer), every row playing a policy whose first call is malformed (refused, then resent)
    or raw source (repaired), under the package harness."""
    assert evals_output.raw[STRICT], evals_output.output[-8000:]
    return StrictRun(evals_output.raw[STRICT], evals_output.bodies[STRICT], evals_output.output)


def _history_arguments(body: dict[str, Any]) -> list[str]:
    return [
        call["function"].get("arguments") or ""
        for message in body.get("messages", [])
        for call in message.get("tool_calls") or ()
    ]


def test_a_strict_endpoint_scores_repaired_and_refused_calls(strict_run: StrictRun) -> None:
    """No error rows: every request's history carries arguments a strict endpoint parses (the
    JSON object the engine ran, or ``{}`` for a refused call), each row scores as the engine
    scores it, and the trace keeps the model's raw text."""
    errors = [(_key(t), t["errors"]) for t in strict_run.raw if not t["ok"]]
    assert errors == [], f"{len(errors)}/{len(strict_run.raw)} error rows: {errors[:2]}"
    assert sorted(map(_key, strict_run.raw)) == sorted(STRICT_ASSIGNED)
    for body in strict_run.bodies:
        for arguments in _history_arguments(body):
            assert isinstance(json.loads(arguments), dict), arguments
    engine = _engine(STRICT_ROWS, STRICT_ASSIGNED)
    for trace in strict_run.raw:
        _assert_matches_engine(_flatten(trace), engine[_key(trace)])
        # The model's sampled message keeps its raw text (trace nodes store calls flat:
        # id, name, arguments); the history's copy is a later, unsampled node.
        first_call = next(
            n["message"]["tool_calls"][0]["arguments"]
            for n in trace["nodes"]
            if n["message"].get("tool_calls") and n.get("sampled")
        )
        engine_call = next(m for m in engine[_key(trace)].messages if m.get("tool_calls"))
        assert first_call == engine_call["tool_calls"][0]["function"]["arguments"]
        assert not first_call.lstrip().startswith("{") or not first_call.rstrip().endswith("}")


# --- the launcher: rl --dry-run, then the env servers it wrote -------------------------------


@dataclass
class DryRun:
    config: Path
    run_dir: Path
    output: str
    output_dir: Path

    def env_configs(self) -> list[Path]:
        return sorted((self.run_dir / "configs" / "envs").glob("*/*.json"))


def _page_sets(config: Path) -> list[str]:
    """The labelled-page sets a config's train sources name (``real2#train``)."""
    sources = tomllib.loads(config.read_text())["orchestrator"]["train"]["source"]
    tables = [source["env"]["taskset"] for source in sources]
    return [f"{t['pages']}#{t.get('pages_part', 'eval')}" for t in tables if "pages" in t]


@pytest.fixture(scope="module")
def real_page_cache() -> Iterator[Path | None]:
    """The pages the configs' page sets name, fetched into a cache the launcher and the env
    servers it writes read (their taskset configs load every row of a page set)."""
    from bs4_env.pages.sets import rows_path

    names = sorted({name for config in CONFIGS for name in _page_sets(config)})
    if not names:
        yield None
        return
    reason = missing_reason()
    if reason:
        pytest.fail(reason, pytrace=False)
    with page_cache_set(shared_cache(sorted({rows_path(name) for name in names}))) as root:
        yield root


@dataclass
class Launch:
    """One launcher command (``rl``/``sft @ <config> --dry-run``): its exit status and output."""

    returncode: int
    output: str
    output_dir: Path


@pytest.fixture(scope="module")
def launches(
    venv: Path,
    forks: ForkServer,
    real_page_cache: Path | None,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[Path, Launch]:
    """``rl @ <config> --dry-run`` for every main config (each its own env-server ports, the
    cluster settings for a multi-node one) and ``sft @ <config> --dry-run`` for every main SFT
    config, by config. All run in one process (``primerl_launch.py``: each command's own
    console-script entry point with its command line, the environment reset between; a fork of
    the interpreter that imported prime-rl once, ``forks``), since importing prime-rl is most of
    a dry run's CPU time (a fork per job, measured without ``gc.freeze``, cost more in all)."""
    work = tmp_path_factory.mktemp("dry")
    base = free_port_block(2 * len(CONFIGS))
    jobs = []
    for index, config in enumerate(CONFIGS):
        args = ["@", str(config), "--dry-run", "--output-dir", str(work / config.stem)]
        args += ["--orchestrator.env-server-base-port", str(base + 2 * index)]
        if _multi_node(config):  # the cluster settings, as the config's header says
            args += [arg for key, value in CLUSTER.items() for arg in (f"--slurm.{key}", value)]
            packages = "lib/python*/site-packages/prime_rl/templates"
            template = next(venv.glob(f"{packages}/multi_node_rl.sbatch.j2"))
            args += ["--slurm.template-path", str(template)]
        jobs.append((config, "rl", args))
    for config in SFT_CONFIGS:
        args = ["@", str(config), "--dry-run", "--output-dir", str(work / config.stem)]
        jobs.append((config, "sft", args))
    logs = [work / f"{config.stem}.log" for config, _, _ in jobs]
    specs = [
        {"command": command, "args": args, "log": str(log)}
        for (_, command, args), log in zip(jobs, logs, strict=True)
    ]
    (work / "jobs.json").write_text(json.dumps(specs))
    launcher = Path(__file__).with_name("primerl_launch.py")
    args = ["jobs.json", "results.json"]
    # The environment now, inside real_page_cache's block (its page cache variable).
    returncode = forks.run(launcher, args, primerl_env(venv), work / "launch.log", work, 1800)
    assert returncode == 0, (work / "launch.log").read_text()[-4000:]
    results = json.loads((work / "results.json").read_text())
    return {
        config: Launch(result["returncode"], log.read_text(), work / config.stem)
        for (config, _, _), log, result in zip(jobs, logs, results, strict=True)
    }


@pytest.fixture(scope="module")
def dry_runs(launches: dict[Path, Launch]) -> list[DryRun]:
    """The ``rl --dry-run`` of every main config: each succeeded and wrote one run."""
    out = []
    for config in CONFIGS:
        launch = launches[config]
        assert launch.returncode == 0, (config.name, launch.output[-4000:])
        run_dirs = [p.parent.parent for p in launch.output_dir.rglob("configs/orchestrator.json")]
        assert len(run_dirs) == 1, (config.name, run_dirs)
        out.append(DryRun(config, run_dirs[0], launch.output, launch.output_dir))
    return out


def _multi_node(config: Path) -> bool:
    return tomllib.loads(config.read_text())["deployment"].get("type") == "multi_node"


def test_multi_node_dry_run_writes_the_cluster_settings(dry_runs: list[DryRun]) -> None:
    """The sbatch script the launcher writes carries every cluster setting given on the command
    line as the config's header says (prime-rl's default partition is ``cluster``); a node-local
    venv (``shared-fs false``) makes it run ``uv sync`` on every node."""
    multi = [dry for dry in dry_runs if _multi_node(dry.config)]
    assert multi
    for dry in multi:
        scripts = [
            p for p in dry.run_dir.parent.rglob("*") if p.is_file() and "#SBATCH" in _text_of(p)
        ]
        assert scripts, (dry.config.name, dry.output[-2000:])
        lines = {line.strip() for path in scripts for line in path.read_text().splitlines()}
        for key in ("partition", "account", "nodelist", "exclude"):
            assert f"#SBATCH --{key}={CLUSTER[key]}" in lines, (key, sorted(lines)[:40])
        assert "#SBATCH --partition=cluster" not in lines
        assert f"export PROJECT_DIR={CLUSTER['project-dir']}" in lines
        assert CLUSTER["pre-run-command"] in lines
        assert any(line.startswith("srun --ntasks-per-node=1 bash") for line in lines)


def _text_of(path: Path) -> str:
    try:
        return path.read_text()
    except UnicodeDecodeError:
        return ""


def test_every_main_config_dry_runs(dry_runs: list[DryRun]) -> None:
    assert [d.config for d in dry_runs] == CONFIGS and len(CONFIGS) >= 4
    for dry in dry_runs:
        written = {p.parent.name: json.loads(p.read_text()) for p in dry.env_configs()}
        assert sorted(written) == ["eval", "train"], dry.config.name
        toml = tomllib.loads(dry.config.read_text())["orchestrator"]
        tables = {"train": toml["train"]["source"][0], "eval": toml["eval"]["source"][0]}
        for split, table in tables.items():
            taskset = written[split]["env"]["taskset"]
            for field, value in table["env"]["taskset"].items():
                assert taskset[field] == value, (dry.config.name, split, field)
            assert written[split]["env"]["agent"]["harness"]["id"] == "null"
        for source in toml["train"]["source"][1:]:  # a second train source (real pages)
            path = dry.run_dir / "configs" / "envs" / "train" / f"{source['name']}.json"
            taskset = json.loads(path.read_text())["env"]["taskset"]
            for field, value in source["env"]["taskset"].items():
                assert taskset[field] == value, (dry.config.name, source["name"], field)


def _without_address(path: Path) -> str:
    config = json.loads(path.read_text())
    config["serve"]["address"] = None
    return json.dumps(config, sort_keys=True)


def _distinct(dry_runs: list[DryRun]) -> list[DryRun]:
    """One dry run per distinct set of env-server configs (identical but for the port: once)."""
    seen: dict[tuple[str, ...], DryRun] = {}
    for dry in dry_runs:
        seen.setdefault(tuple(_without_address(p) for p in dry.env_configs()), dry)
    return list(seen.values())


def _first_rows(dry: DryRun) -> dict[str, list[Row]]:
    toml = tomllib.loads(dry.config.read_text())["orchestrator"]
    rows = {}
    for split, table in (("train", toml["train"]), ("eval", toml["eval"])):
        taskset = table["source"][0]["env"]["taskset"]
        wanted = ("split", "mode", "seed", "num_examples")
        fields = {k: v for k, v in taskset.items() if k in wanted}
        rows[split] = list(build_rows(DatasetConfig.from_kwargs(**fields))[:DRIVEN_ROWS])
    return rows


@pytest.fixture(scope="module")
def driven(
    venv: Path, forks: ForkServer, dry_runs: list[DryRun], tmp_path_factory: pytest.TempPathFactory
) -> dict[Path, list[dict[str, Any]]]:
    """Start the env servers of each distinct dry run as written (``env-server @ <config>``, as
    ``rl`` starts them, each a fork of ``forks``), all at once, and drive them through
    prime-rl's orchestrator ``Env`` classes (``primerl_drive.py``, also a fork)."""
    logs = tmp_path_factory.mktemp("env-server-logs")
    # Configs with one train source: the scripted server knows their generated rows (a config
    # that adds real training pages is checked by its dry run and tests/test_configs_taskset).
    distinct = [dry for dry in _distinct(dry_runs) if not _page_sets(dry.config)]
    rows = [
        row for dry in distinct for split_rows in _first_rows(dry).values() for row in split_rows
    ]
    records = logs / "records.jsonl"
    configs = [path for dry in distinct for path in dry.env_configs()]
    with ScriptedServer(rows) as server, _env_servers(forks, venv, configs, logs):
        drive = [
            server.base_url,
            KEY_VAR,
            "reference",
            str(DRIVEN_ROWS),
            str(records),
            *(str(dry.run_dir / "configs" / "orchestrator.json") for dry in distinct),
        ]
        script = Path(__file__).with_name("primerl_drive.py")
        returncode = forks.run(script, drive, primerl_env(venv), logs / "drive.log", logs, 600)
    tails = "\n".join(f"== {p.name}\n{p.read_text()[-2000:]}" for p in logs.glob("*.log"))
    assert returncode == 0, tails
    out: dict[Path, list[dict[str, Any]]] = {dry.config: [] for dry in distinct}
    by_run = {str(dry.run_dir / "configs" / "orchestrator.json"): dry.config for dry in distinct}
    for line in records.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        out[by_run[record["config"]]].append(record)
    return out


@contextmanager
def _env_servers(forks: ForkServer, venv: Path, configs: list[Path], logs: Path) -> Iterator[None]:
    """``env-server @ <config>`` for each config, stopped (its whole session) on exit."""
    pids = []
    try:
        for config in configs:
            log = logs / f"{config.parent.name}-{config.stem}.log"
            server, args = venv / "bin" / "env-server", ["@", str(config)]
            pids.append(forks.start(server, args, primerl_env(venv), log, logs))
        yield
    finally:
        forks.stop(pids)


def test_launcher_env_servers_run_like_the_engine(
    dry_runs: list[DryRun], driven: dict[Path, list[dict[str, Any]]]
) -> None:
    assert driven
    by_config = {dry.config: dry for dry in dry_runs}
    for config, records in driven.items():
        assert [r["split"] for r in records] == ["train", "eval"], config.name
        rows = _first_rows(by_config[config])
        for record in records:
            split_rows = rows[record["split"]]
            policies = {(r.archetype_id, r.seed): "reference" for r in split_rows}
            engine = _engine(split_rows, policies)
            keys = [(t["archetype"], t["seed"]) for t in record["traces"]]
            assert keys == [(r.archetype_id, r.seed) for r in split_rows], config.name
            for trace in record["traces"]:
                _assert_matches_engine(trace, engine[(trace["archetype"], trace["seed"])])
        train, bench = records
        assert train["infinite"] and train["num_tasks"] is None, "the train taskset streams"
        prefix = build_rows(DatasetConfig(split="bench", num_examples=200))
        assert bench["example_keys"] == [f"bench/{r.archetype_id}/{r.seed}" for r in prefix]


# --- the SFT launcher: sft --dry-run for every main SFT config ------------------------------


def test_every_sft_config_dry_runs(launches: dict[Path, Launch]) -> None:
    """``sft @ <config> --dry-run``: prime-rl's own launcher accepts each SFT config and writes
    the resolved config, reading our episodes (``bs4-env sft-data``) with the assistant-only
    loss mask. The Qwen2.5-Coder configs pass its typed-renderer check only through this
    package's renderer, which the launcher imports from the installed checkout."""
    assert len(SFT_CONFIGS) >= 4
    for config in SFT_CONFIGS:
        launch = launches[config]
        assert launch.returncode == 0, (config.name, launch.output[-4000:])
        written = [json.loads(p.read_text()) for p in launch.output_dir.rglob("configs/sft.json")]
        assert len(written) == 1, config.name
        data = written[0]["data"]
        assert data["type"] == "sft" and data["name"] == "outputs/sft-data", config.name
        assert data["loss_mask"] == {
            "system": False,
            "user": False,
            "assistant": True,
            "tool": False,
        }
        renderer = tomllib.loads(config.read_text()).get("renderer", {"name": "auto"})
        assert {k: written[0]["renderer"][k] for k in renderer} == renderer, config.name
