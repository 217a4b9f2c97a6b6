"""Same transcript, same reward on every path: real ``vf-eval`` vs the engine's ``run_rollout``.

A loopback server plays each scripted policy; ``vf-eval beautiful-soup-env`` runs once as a
subprocess against it (null harness, subprocess runtime, shared tool server), the server
playing one policy per row so that every policy plays every archetype. Every trace's
reward, score components, tool replies and final answer must equal what ``run_rollout``
gives with the same policy, and the reference policy must also agree with ``bs4-env eval``.
``bs4-env eval --model`` against the same server (a policy per row) runs once for every policy.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from policy_rows import policy_rows
from scripted_server import POLICY_NAMES, ScriptedServer, policy_for
from vf_run import (
    BIN,
    VfRun,
    bad_arguments,
    run_vf_eval,
    total_reward,
    trace_messages,
    vf_eval_command,
)

from bs4_env.episode.executors import make_executor
from bs4_env.episode.tool_text import without_timing
from bs4_env.evaluation.rollout import Rollout, run_rollout
from bs4_env.grading.rubric import TIMING_COMPONENTS
from bs4_env.tasks.model import Category
from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import Row

pytestmark = pytest.mark.integration


def _archetypes() -> list[str]:
    """A single-page one, the limitation one, and a multi-page one when registered."""
    registry = default_registry()
    multipage = [s.id for s in registry if s.category is Category.MULTIPAGE]
    if "multipage_navigate" in registry.ids():
        multipage = ["multipage_navigate"]
    return ["text_by_id", "js_rendered", *multipage[:1]]


ARCHETYPES = _archetypes()
# The bench split when its manifest has every chosen archetype, else the eval split (a newly
# registered archetype reaches the versioned bench manifest only when it is regenerated).
_BENCH = {row.archetype_id for row in build_rows(DatasetConfig(split="bench"))}
SPLIT = "bench" if set(ARCHETYPES) <= _BENCH else "eval"


def _rows() -> list[Row]:
    """The shortest prefix of the split (for these archetypes) that covers each of them."""
    rows = build_rows(DatasetConfig(split=SPLIT, archetypes=tuple(ARCHETYPES)))
    for n in range(1, min(len(rows), 200) + 1):
        if {row.archetype_id for row in rows[:n]} == set(ARCHETYPES):
            return list(rows[:n])
    raise AssertionError(f"split {SPLIT} lacks one of {ARCHETYPES}")


ROWS = _rows()
"""The reference policy's rows (and ``bs4-env eval``'s): it plays them as the run's model."""
PLAN = policy_rows(SPLIT, ARCHETYPES, ROWS)
"""The run's rows and the policy the scripted server plays on each (``ROWS``: the reference)."""
ALL_ROWS, ASSIGNED = PLAN.rows, PLAN.assigned
_policy_of, _rows_of = PLAN.policy_of, PLAN.rows_of


TASKSET = {
    "split": SPLIT,
    "archetypes": ",".join(ARCHETYPES),
    "num-examples": len(ALL_ROWS),
    "executor": "local",
    "pool-size": 2,
}


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    """Plays the requested model on ``ROWS`` (``bs4-env eval --model``), ``ASSIGNED`` after."""
    with ScriptedServer(ALL_ROWS, policies=ASSIGNED) as srv:
        yield srv


@pytest.fixture(scope="module")
def vf_run(server: ScriptedServer, tmp_path_factory: pytest.TempPathFactory) -> VfRun:
    """One vf-eval over ``ALL_ROWS``, each row played by its policy."""
    out = tmp_path_factory.mktemp("vf")
    command = vf_eval_command("reference", server.base_url, out, "policies", len(ALL_ROWS), 8,
                              TASKSET)  # fmt: skip
    run = run_vf_eval(command, out, "policies")
    assert run.returncode == 0, run.output[-4000:]
    assert len(run.traces) == len(ALL_ROWS), run.output[-4000:]
    return run


def _traces_of(run: VfRun, policy: str) -> list[dict[str, Any]]:
    """The run's traces of the rows ``policy`` played (one per row, checked)."""
    keys = [(t["task"]["data"]["archetype"], t["task"]["data"]["seed"]) for t in run.traces]
    traces = [t for t, key in zip(run.traces, keys, strict=True) if _policy_of(key) == policy]
    assert len(traces) == len(_rows_of(policy)), (policy, run.output[-4000:])
    return traces


async def _rollouts(policy: str, rows: tuple[Row, ...]) -> dict[tuple[str, int], Rollout]:
    async with make_executor("local", pool_size=2) as executor:
        tasks = [build_task(r.archetype_id, r.seed, r.split) for r in rows]
        rollouts = await asyncio.gather(
            *(run_rollout(t, policy_for(policy, t), executor) for t in tasks)
        )
    return {(r.task.archetype_id, r.task.seed): r for r in rollouts}


@functools.cache
def _engine_rollouts(policy: str, rows: tuple[Row, ...]) -> dict[tuple[str, int], Rollout]:
    """The engine's own rollouts of ``policy`` over ``rows`` (deterministic, so computed once)."""
    return asyncio.run(_rollouts(policy, rows))


def _untimed(components: Mapping[str, float]) -> dict[str, float]:
    return {k: v for k, v in components.items() if k not in TIMING_COMPONENTS}


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def test_every_policy_plays_every_archetype() -> None:
    for policy in POLICY_NAMES:
        assert {row.archetype_id for row in _rows_of(policy)} == set(ARCHETYPES), policy
    assert _rows_of("reference") == tuple(ROWS)


@pytest.mark.parametrize("policy", POLICY_NAMES)
def test_vf_eval_matches_engine(policy: str, vf_run: VfRun) -> None:
    traces = _traces_of(vf_run, policy)
    expected = _engine_rollouts(policy, _rows_of(policy))
    for trace in traces:
        assert trace["ok"], trace["errors"]
        data = trace["task"]["data"]
        assert "truth" not in data
        key = (data["archetype"], data["seed"])
        engine = expected[key]
        info = trace["info"]
        for column in ("archetype", "seed", "split", "difficulty", "category"):
            assert info[column] == data[column]
        assert info["explanation"] == engine.score.explanation, key
        assert total_reward(trace) == engine.score.reward, key
        metrics = trace["metrics"]
        for name, value in engine.score.components.items():
            if name not in TIMING_COMPONENTS:  # wall-clock figures differ run to run
                assert metrics[name] == value, (key, name)
        assert metrics["bad_arguments"] == bad_arguments(engine.messages), key
        # The transcripts themselves: every tool reply and the final answer.
        messages = trace_messages(trace)
        vf_tools = [without_timing(_text(m["content"])) for m in messages if m["role"] == "tool"]
        engine_tools = [
            without_timing(str(m["content"])) for m in engine.messages if m["role"] == "tool"
        ]
        assert vf_tools == engine_tools, key
        assert [m["role"] for m in messages] == [m["role"] for m in engine.messages], key
        final = [m for m in messages if m["role"] == "assistant"][-1]
        assert _text(final["content"]) == engine.final_text, key


def test_malformed_arguments_answered_on_host(vf_run: VfRun) -> None:
    """The truncated first call is answered by the engine's repair, not the harness."""
    for trace in _traces_of(vf_run, "malformed"):
        tools = [m for m in trace_messages(trace) if m["role"] == "tool"]
        assert not _text(tools[0]["content"]).startswith("error: invalid JSON in tool arguments")
        assert trace["metrics"]["bad_arguments"] == 1.0
        assert trace["info"]["bs4"]["host_calls"] == 1
        assert trace["request_rewrites"], "the request hook answered the call"


def test_every_path_same_rewards_for_reference(vf_run: VfRun, tmp_path: Path) -> None:
    """``bs4-env eval`` (reference policy) gives the same rewards and components as vf-eval."""
    output = tmp_path / "eval.json"
    command = [
        str(BIN / "bs4-env"), "eval", "--split", SPLIT, "--archetypes", ",".join(ARCHETYPES),
        "--num", str(len(ROWS)), "--output", str(output), "--quiet", "--no-resume",
    ]  # fmt: skip
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-4000:]
    records = {(r["archetype"], r["seed"]): r for r in json.loads(output.read_text())["rollouts"]}
    traces = _traces_of(vf_run, "reference")
    assert {(t["task"]["data"]["archetype"], t["task"]["data"]["seed"]) for t in traces} == set(
        records
    )
    for trace in traces:
        record = records[(trace["task"]["data"]["archetype"], trace["task"]["data"]["seed"])]
        assert total_reward(trace) == record["reward"]
        for name, value in record["components"].items():
            if name not in TIMING_COMPONENTS:
                assert trace["metrics"][name] == value, name


def test_reference_policy_scores(vf_run: VfRun) -> None:
    """Sanity: the reference policy solves every task (1.0, or 0.5 for a justified abstention)."""
    for trace in _traces_of(vf_run, "reference"):
        solvable = trace["task"]["data"]["category"] != Category.LIMITATION.value
        assert total_reward(trace) == (1.0 if solvable else 0.5), trace["info"]["explanation"]
        if trace["task"]["data"]["category"] == Category.MULTIPAGE.value:
            calls = [c for m in trace_messages(trace) for c in m.get("tool_calls") or ()]
            assert "navigate" in {c["name"] for c in calls}, "multi-page tasks use navigate"


@pytest.fixture(scope="module")
def endpoint_eval(server: ScriptedServer, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``bs4-env eval --model reference`` over ``ALL_ROWS`` against the scripted endpoint, each
    row played by its policy (one run for every policy: a run is mostly process start-up)."""
    output = tmp_path_factory.mktemp("endpoint") / "endpoint.json"
    command = [
        str(BIN / "bs4-env"), "eval", "--model", "reference", "--base-url", server.base_url,
        "--api-key-var", "BS4ENV_E2E_KEY", "--split", SPLIT, "--archetypes", ",".join(ARCHETYPES),
        "--num", str(len(ALL_ROWS)), "--output", str(output), "--quiet", "--no-resume",
    ]  # fmt: skip
    env = {**os.environ, "BS4ENV_E2E_KEY": "scripted"}
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(output.read_text())


@pytest.mark.parametrize("policy", POLICY_NAMES)
def test_bs4_env_eval_through_an_openai_endpoint(policy: str, endpoint_eval: Any) -> None:
    """``bs4-env eval --model`` drives a real OpenAI client against the scripted endpoint and
    gets the engine's rewards, components and token usage, for every policy's rows."""
    results = endpoint_eval
    assert results["model"] == "reference" and results["usage"]["completion_tokens"] > 0
    expected = _engine_rollouts(policy, _rows_of(policy))
    records = [r for r in results["rollouts"] if (r["archetype"], r["seed"]) in expected]
    assert len(records) == len(expected) == len(_rows_of(policy))
    for record in records:
        engine = expected[(record["archetype"], record["seed"])]
        assert record["reward"] == engine.score.reward
        assert _untimed(record["components"]) == _untimed(engine.score.components)
        assert record["final"] == engine.final_text
