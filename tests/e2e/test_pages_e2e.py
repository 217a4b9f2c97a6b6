"""A bring-your-own rows file through every path, with equal rewards: the engine's
``run_rollout``, real ``vf-eval beautiful-soup-env --env.taskset.pages rows.jsonl`` (v1 taskset,
shared tool server in its own process) and ``bs4-env eval --pages rows.jsonl`` against the same
scripted endpoint. (prime-rl's ``evals`` over the same rows: test_primerl_integration.py.)"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from byo_rows import write_byo_rows
from scripted_server import ScriptedServer, policy_for
from vf_run import BIN, bad_arguments, run_vf_eval, total_reward, vf_eval_command

from bs4_env.episode.executors import make_executor
from bs4_env.evaluation.rollout import Rollout, run_rollout
from bs4_env.grading.rubric import TIMING_COMPONENTS
from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
from bs4_env.pages.sets import page_set
from bs4_env.tasks.model import Task

pytestmark = pytest.mark.integration
POLICIES = ("reference", "nocode", "malformed")


@pytest.fixture(scope="module")
def rows_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_byo_rows(tmp_path_factory.mktemp("byo"))


@pytest.fixture(scope="module")
def tasks(rows_file: Path) -> list[Task]:
    pages = page_set(str(rows_file), DEFAULT_MAX_PAGE_BYTES)
    return [pages.task(index) for index in range(len(pages))]


@pytest.fixture(scope="module")
def server(tasks: list[Task]) -> Iterator[ScriptedServer]:
    with ScriptedServer([], tasks=tasks) as srv:
        yield srv


@pytest.fixture(scope="module")
def engine(tasks: list[Task]) -> dict[str, dict[str, Rollout]]:
    async def play(policy: str) -> dict[str, Rollout]:
        async with make_executor("local", pool_size=2) as executor:
            done = await asyncio.gather(
                *(run_rollout(t, policy_for(policy, t), executor) for t in tasks)
            )
        return {rollout.task.row_id or "": rollout for rollout in done}

    return {policy: asyncio.run(play(policy)) for policy in POLICIES}


def test_reference_solves_every_byo_row(engine: dict[str, dict[str, Rollout]]) -> None:
    assert {row: r.score.reward for row, r in engine["reference"].items()} == {
        "shop/price": 1.0, "shop/gtin": 1.0, "news/title": 1.0, "news/date": 1.0,
    }  # fmt: skip
    assert all(r.score.reward == 0.0 for r in engine["nocode"].values())


@pytest.mark.parametrize("policy", POLICIES)
def test_vf_eval_matches_the_engine(
    policy: str,
    rows_file: Path,
    server: ScriptedServer,
    engine: dict[str, dict[str, Rollout]],
    tmp_path: Path,
) -> None:
    taskset = {"pages": str(rows_file), "executor": "local", "pool-size": 2}
    command = vf_eval_command(policy, server.base_url, tmp_path, policy, 4, 4, taskset)
    run = run_vf_eval(command, tmp_path, policy)
    assert run.returncode == 0, run.output[-4000:]
    assert len(run.traces) == 4, run.output[-4000:]
    for trace in run.traces:
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


@pytest.mark.parametrize("policy", ["reference", "malformed"])
def test_bs4_env_eval_pages_matches_the_engine(
    policy: str,
    rows_file: Path,
    server: ScriptedServer,
    engine: dict[str, dict[str, Rollout]],
    tmp_path: Path,
) -> None:
    output = tmp_path / "eval.json"
    command = [
        str(BIN / "bs4-env"), "eval", "--pages", str(rows_file), "--model", policy,
        "--base-url", server.base_url, "--api-key-var", "BS4ENV_E2E_KEY",
        "--output", str(output), "--quiet", "--no-resume",
    ]  # fmt: skip
    env = {**os.environ, "BS4ENV_E2E_KEY": "scripted"}
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-4000:]
    results = json.loads(output.read_text())
    assert results["split"] == "pages" and results["n"] == 4
    by_index = {rollout.task.seed: rollout for rollout in engine[policy].values()}
    for record in results["rollouts"]:
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
