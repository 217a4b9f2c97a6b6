"""A bring-your-own rows file through every path, with equal rewards: the engine's
``run_rollout``, real ``vf-eval beautiful-soup-env --env.taskset.pages rows.jsonl`` (v1 taskset,
shared tool server in its own process) and ``bs4-env eval --pages rows.jsonl`` against the same
scripted endpoint. (prime-rl's ``evals`` over the same rows: test_primerl_integration.py.)

Each path runs once for every policy, since a run is mostly process start-up: the rows file
holds the rows once per policy (``write_byo_rows(copies=)``: the copies differ only in their
ids and a suffix to their requests), and the scripted server plays each copy's policy, so
every policy still plays every row, compared with the engine's rollout of that policy."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from byo_rows import write_byo_rows
from scripted_server import ScriptedServer, policy_for
from vf_run import BIN, VfRun, bad_arguments, run_vf_eval, total_reward, vf_eval_command

from bs4_env.episode.executors import make_executor
from bs4_env.evaluation.rollout import Rollout, run_rollout
from bs4_env.grading.rubric import TIMING_COMPONENTS
from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
from bs4_env.pages.sets import page_set
from bs4_env.tasks.model import Task

pytestmark = pytest.mark.integration
POLICIES = ("reference", "nocode", "malformed")
ROWS_PER_COPY = 4
"""The byo rows file's rows (one per kind of label); copy ``k`` is played by ``POLICIES[k]``."""


def _policy(task: Task) -> str:
    return POLICIES[task.seed // ROWS_PER_COPY]  # a page row's seed is its line index


@pytest.fixture(scope="module")
def rows_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_byo_rows(tmp_path_factory.mktemp("byo"), copies=len(POLICIES))


@pytest.fixture(scope="module")
def tasks(rows_file: Path) -> list[Task]:
    pages = page_set(str(rows_file), DEFAULT_MAX_PAGE_BYTES)
    assert len(pages) == ROWS_PER_COPY * len(POLICIES)
    return [pages.task(index) for index in range(len(pages))]


@pytest.fixture(scope="module")
def server(tasks: list[Task]) -> Iterator[ScriptedServer]:
    """Plays the requested model on the first copy (``reference`` runs), each other copy's
    policy there."""
    assigned = {(t.archetype_id, t.seed): _policy(t) for t in tasks if _policy(t) != "reference"}
    with ScriptedServer([], tasks=tasks, policies=assigned) as srv:
        yield srv


@pytest.fixture(scope="module")
def engine(tasks: list[Task]) -> dict[str, dict[str, Rollout]]:
    """The engine's rollouts of each policy over its copy of the rows, by row id."""

    async def play() -> list[Rollout]:
        async with make_executor("local", pool_size=2) as executor:
            return await asyncio.gather(
                *(run_rollout(t, policy_for(_policy(t), t), executor) for t in tasks)
            )

    out: dict[str, dict[str, Rollout]] = {policy: {} for policy in POLICIES}
    for rollout in asyncio.run(play()):
        out[_policy(rollout.task)][rollout.task.row_id or ""] = rollout
    return out


@pytest.fixture(scope="module")
def vf_run(
    rows_file: Path, server: ScriptedServer, tmp_path_factory: pytest.TempPathFactory
) -> VfRun:
    """One vf-eval (model ``reference``) over every copy of the rows."""
    out = tmp_path_factory.mktemp("vf")
    taskset = {"pages": str(rows_file), "executor": "local", "pool-size": 2}
    rows = ROWS_PER_COPY * len(POLICIES)
    command = vf_eval_command("reference", server.base_url, out, "policies", rows, 6, taskset)
    run = run_vf_eval(command, out, "policies")
    assert run.returncode == 0, run.output[-4000:]
    assert len(run.traces) == rows, run.output[-4000:]
    return run


@pytest.fixture(scope="module")
def bs4_env_eval(
    rows_file: Path, server: ScriptedServer, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """One ``bs4-env eval --pages --model reference`` over every copy of the rows."""
    output = tmp_path_factory.mktemp("eval") / "eval.json"
    command = [
        str(BIN / "bs4-env"), "eval", "--pages", str(rows_file), "--model", "reference",
        "--base-url", server.base_url, "--api-key-var", "BS4ENV_E2E_KEY",
        "--output", str(output), "--quiet", "--no-resume",
    ]  # fmt: skip
    env = {**os.environ, "BS4ENV_E2E_KEY": "scripted"}
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-4000:]
    results: dict[str, Any] = json.loads(output.read_text())
    return results


def test_reference_solves_every_byo_row(engine: dict[str, dict[str, Rollout]]) -> None:
    assert {row: r.score.reward for row, r in engine["reference"].items()} == {
        "shop/price": 1.0, "shop/gtin": 1.0, "news/title": 1.0, "news/date": 1.0,
    }  # fmt: skip
    assert all(r.score.reward == 0.0 for r in engine["nocode"].values())


@pytest.mark.parametrize("policy", POLICIES)
def test_vf_eval_matches_the_engine(
    policy: str, rows_file: Path, vf_run: VfRun, engine: dict[str, dict[str, Rollout]]
) -> None:
    traces = [t for t in vf_run.traces if t["task"]["data"]["row_id"] in engine[policy]]
    assert len(traces) == ROWS_PER_COPY, vf_run.output[-4000:]
    for trace in traces:
        assert trace["ok"], trace["errors"]
        data = trace["task"]["data"]
        expected = engine[policy][data["row_id"]]
        assert data["category"] == "pages" and data["pages"] == str(rows_file.resolve())
        assert trace["info"]["row_id"] == data["row_id"]
        assert total_reward(trace) == expected.score.reward, data["row_id"]
        for name, value in expected.score.components.items():
            if name not in TIMING_COMPONENTS:
                assert trace["metrics"][name] == value, (data["row_id"], name)
        assert trace["metrics"]["bad_arguments"] == bad_arguments(expected.messages)


@pytest.mark.parametrize("policy", POLICIES)
def test_bs4_env_eval_pages_matches_the_engine(
    policy: str, bs4_env_eval: dict[str, Any], engine: dict[str, dict[str, Rollout]]
) -> None:
    results = bs4_env_eval
    assert results["split"] == "pages" and results["n"] == ROWS_PER_COPY * len(POLICIES)
    by_index = {rollout.task.seed: rollout for rollout in engine[policy].values()}
    records = [r for r in results["rollouts"] if r["seed"] in by_index]
    assert len(records) == ROWS_PER_COPY
    for record in records:
        expected = by_index[record["seed"]]
        assert record["archetype"] == expected.task.archetype_id
        assert record["reward"] == expected.score.reward
        assert record["final"] == expected.final_text


def test_v1_config_takes_pages_and_refuses_generated_task_options(rows_file: Path) -> None:
    from bs4_env.integrations.verifiers_v1 import BeautifulSoupTaskset, BS4TasksetConfig

    config = BS4TasksetConfig(pages=str(rows_file), num_examples=3)
    tasks = list(BeautifulSoupTaskset(config).load())
    assert [t.data.row_id for t in tasks] == ["shop/price", "shop/gtin", "news/title"]
    assert not getattr(type(BeautifulSoupTaskset(config)), "INFINITE", False)
    # Defaults passed along explicitly (as prime-rl's env server does) are no clash.
    BS4TasksetConfig(pages=str(rows_file), split="train", mode="all", seed=None)
    with pytest.raises(ValueError, match=r"pages= chooses its own rows; drop \['split'\]"):
        BS4TasksetConfig(pages=str(rows_file), split="bench")
    rows_file.with_name("bad.jsonl").write_text('{"id": "x", "request": "r", "html": "<p>"}\n')
    with pytest.raises(ValueError, match=r"row 'x' \(line 1\): 'answer' is missing"):
        BS4TasksetConfig(pages=str(rows_file.with_name("bad.jsonl")))
