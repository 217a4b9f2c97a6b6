"""The train split is an endless, deterministic stream; every other selection stays finite.

prime-rl's orchestrator streams a taskset whose class has ``INFINITE = True`` and otherwise
runs ``list(taskset)`` (1.2M train rows: ~half an hour and ~5 GiB before the first rollout).
A resumed run's sampler skips as many tasks as its checkpoint cursor says, so the stream must
give the same rows in the same order every time. (The prime-rl integration test starts the
launcher-written train source through prime-rl's own ``Env.start``.)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.splits import Row

pytestmark = pytest.mark.integration

TRAIN = {"split": "train", "mode": "tiered", "seed": 0}


@pytest.fixture(scope="module")
def api() -> Iterator[SimpleNamespace]:
    pytest.importorskip("verifiers.v1")
    from bs4_env.integrations.verifiers_v1 import taskset
    from bs4_env.integrations.verifiers_v1.config import BS4TasksetConfig

    yield SimpleNamespace(module=taskset, Config=BS4TasksetConfig)


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
