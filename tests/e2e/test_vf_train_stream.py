"""The train split is an endless, deterministic stream; every other selection stays finite.

prime-rl's orchestrator streams a taskset whose class has ``INFINITE = True`` and otherwise
runs ``list(taskset)`` (1.2M train rows: ~half an hour and ~5 GiB before the first rollout).
A resumed run's sampler skips as many tasks as its checkpoint cursor says, so the stream must
give the same rows in the same order every time, and since the orchestrator draws inside its
dispatcher's event loop, a draw must never generate a task (``scripts/bench_train_stream.py``
measures draw and resume times): the env worker generates it and writes the request over the
row's deferred prompt. (The prime-rl integration test starts the launcher-written train source
through prime-rl's own ``Env.start`` and runs its rows on the env server; ``vf-eval`` runs a
stream row below.)
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from scripted_server import ScriptedServer, policy_for
from vf_run import run_vf_eval, total_reward, trace_messages, vf_eval_command

from bs4_env.episode.executors import make_executor
from bs4_env.episode.prompt import user_prompt
from bs4_env.evaluation.rollout import run_rollout
from bs4_env.tasks import registry as registry_module
from bs4_env.tasks.model import Task
from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import Row

pytestmark = pytest.mark.integration

TRAIN = {"split": "train", "mode": "tiered", "seed": 0}


@pytest.fixture(scope="module")
def api() -> Iterator[SimpleNamespace]:
    pytest.importorskip("verifiers.v1")
    import verifiers.v1 as vf

    from bs4_env.integrations.verifiers_v1 import deferred_prompt, state, taskset
    from bs4_env.integrations.verifiers_v1.config import BS4TasksetConfig

    yield SimpleNamespace(
        vf=vf, module=taskset, Config=BS4TasksetConfig, deferred=deferred_prompt, state=state
    )


def _keys(tasks: Iterator[object], n: int) -> list[str]:
    return [task.key for task in itertools.islice(tasks, n)]  # type: ignore[attr-defined]


def test_train_split_streams(api: SimpleNamespace) -> None:
    started = time.perf_counter()
    taskset = api.module.BeautifulSoupTaskset(api.Config(**TRAIN))
    first = _keys(iter(taskset), 16)
    assert time.perf_counter() - started < 10, "building the train taskset must not walk it"
    assert type(taskset).INFINITE is True
    assert isinstance(taskset, api.module.BeautifulSoupTaskset)
    rows = build_rows(DatasetConfig.from_kwargs(**TRAIN))
    assert len(rows) > 1_000_000
    assert first == [f"train/{r.archetype_id}/{r.seed}" for r in rows[:16]]


def test_stream_order_is_deterministic_so_resume_continues_in_place(api: SimpleNamespace) -> None:
    """prime-rl's ``StandardSampler.load_state_dict`` draws and drops ``cursor`` tasks from a
    fresh stream: that must land exactly where the checkpointed run stopped."""
    config = api.Config(**TRAIN)
    run = _keys(iter(api.module.BeautifulSoupTaskset(config)), 40)
    resumed = iter(api.module.BeautifulSoupTaskset(config))
    for _ in range(25):  # the checkpoint's cursor
        next(resumed)
    assert _keys(resumed, 15) == run[25:]


def test_stream_starts_over_after_the_last_row(
    api: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [Row("text_by_id", seed, "train") for seed in (3, 1, 2)]
    monkeypatch.setattr(api.module, "build_rows", lambda config: rows)
    taskset = api.module.BeautifulSoupTaskset(api.Config(**TRAIN))
    assert _keys(iter(taskset), 7) == [f"train/text_by_id/{s}" for s in (3, 1, 2, 3, 1, 2, 3)]


@pytest.mark.parametrize(
    "fields",
    [
        {"split": "train", "num_examples": 5},
        {"split": "eval", "num_examples": 5},
        {"split": "bench"},
    ],
)
def test_other_selections_stay_finite(api: SimpleNamespace, fields: dict[str, object]) -> None:
    taskset = api.module.BeautifulSoupTaskset(api.Config(**fields))
    assert type(taskset) is api.module.BeautifulSoupTaskset
    assert type(taskset).INFINITE is False
    if "num_examples" in fields:
        assert len(list(taskset)) == fields["num_examples"]


def test_stream_draws_never_generate_a_task(
    api: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A draw is the row's identity, the registry's labels and the deferred prompt."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a stream draw generated a task: {args}")

    api.state.cached_task.cache_clear()
    monkeypatch.setattr(registry_module, "build_task", refuse)
    monkeypatch.setattr(api.state, "build_task", refuse)
    tasks = list(itertools.islice(iter(api.module.BeautifulSoupTaskset(api.Config(**TRAIN))), 300))
    registry = default_registry()
    for task in tasks:
        data = task.data
        spec = registry.get(data.archetype)
        assert data.prompt == api.deferred.deferred_prompt(data.split, data.archetype, data.seed)
        assert (data.difficulty, data.category) == (spec.difficulty.value, spec.category.value)
        assert task.key == f"train/{data.archetype}/{data.seed}"


def test_the_request_is_written_over_the_deferred_prompt(api: SimpleNamespace) -> None:
    vf, deferred = api.vf, api.deferred
    placeholder = deferred.deferred_prompt("train", "text_by_id", 7)
    opening = vf.Request(
        messages=[vf.SystemMessage(content="s"), vf.UserMessage(content=placeholder)]
    )
    assert deferred.opens_deferred(opening)
    written = deferred.write_request(opening, placeholder, "the request")
    assert [m.content for m in written.messages] == ["s", "the request"]
    assert not deferred.opens_deferred(written)
    assert deferred.write_request(written, placeholder, "the request") is None
    other = deferred.deferred_prompt("train", "text_by_id", 8)
    with pytest.raises(RuntimeError, match="this rollout's state"):
        deferred.write_request(opening, other, "the request")


async def _engine_reward(task: Task) -> float:
    async with make_executor("local", pool_size=1) as executor:
        rollout = await run_rollout(task, policy_for("reference", task), executor)
    return rollout.score.reward


def test_vf_eval_runs_a_stream_row_with_its_real_request(tmp_path: Path) -> None:
    """``vf-eval`` (verifiers 0.4) over the train stream: the model gets the task's request
    (the scripted server finds the task by it, else it answers 400) and the reward is the
    engine's for the same policy, while the trace's task data keeps the deferred prompt."""
    rows = list(build_rows(DatasetConfig.from_kwargs(split="train"))[:2])
    with ScriptedServer(rows) as server:
        command = vf_eval_command("reference", server.base_url, tmp_path, "stream", 2, 2, {})
        run = run_vf_eval([*command, "--env.taskset.split", "train"], tmp_path, "stream")
    assert run.returncode == 0, run.output[-3000:]
    assert len(run.traces) == 2
    for trace in run.traces:
        data = trace["task"]["data"]
        assert data["prompt"].startswith("[beautiful-soup-env] deferred request of task train/")
        task = build_task(data["archetype"], data["seed"], data["split"])
        users = [m["content"] for m in trace_messages(trace) if m["role"] == "user"]
        assert users == [user_prompt(task)]
        assert trace["ok"], trace["errors"]
        assert total_reward(trace) == asyncio.run(_engine_reward(task))
