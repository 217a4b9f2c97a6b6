"""``BeautifulSoupTaskset``: the verifiers v1 taskset (``vf-eval beautiful-soup-env``).

``load()`` walks our dataset rows lazily (``build_rows``): a task is generated only when
verifiers reads it, so ``-n 5`` on the 1.2M-row train split builds five tasks.

The train split (without ``num_examples``) is an endless stream: a taskset built for it is a
``BeautifulSoupTrainStream``, whose class declares ``INFINITE = True``. prime-rl's orchestrator
checks exactly that (``type(taskset).INFINITE``) and otherwise materializes the whole taskset
with ``list(taskset)``, which for 1.2M train rows takes about half an hour and 5 GiB before
the first rollout (``scripts/bench_taskset_start.py``); streamed, it builds a task only when
the sampler draws it. The training part of a page set (``pages_part="train"``) streams the
same way, its rows in a fixed shuffled order. The stream walks the
seeded row order (``seed`` shuffles it) and starts over after the last row. It is
deterministic, so a resumed prime-rl run (whose sampler skips as many tasks as its checkpoint
cursor says) continues at the very row it stopped before. Every other selection (``eval``,
``bench``, any ``num_examples``) stays finite.

A stream row never generates its task: the orchestrator draws it inside its event loop, and a
resume replays ``cursor`` draws (``scripts/bench_train_stream.py``). Its data is the identity,
the registry's labels and a deferred prompt; the env worker generates the task when the
rollout starts and writes the real request in (``deferred_prompt``). Finite selections are
materialized off the event loop once, so their rows carry the real request.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf

from bs4_env.episode.prompt import SYSTEM_PROMPT, user_prompt
from bs4_env.integrations.verifiers_v1.config import BS4TasksetConfig
from bs4_env.integrations.verifiers_v1.deferred_prompt import deferred_prompt
from bs4_env.integrations.verifiers_v1.state import cached_task
from bs4_env.integrations.verifiers_v1.task import BS4Task, BS4TaskData
from bs4_env.integrations.verifiers_v1.toolset import BS4Toolset
from bs4_env.pages.selection import page_rows
from bs4_env.pages.sets import canonical_name, page_set, page_task
from bs4_env.tasks.model import Category, Task
from bs4_env.tasks.modes import build_rows
from bs4_env.tasks.registry import default_registry
from bs4_env.tasks.splits import Row


def task_data(row: Row) -> BS4TaskData:
    """The verifiers task data of one row: prompts, identity and labels (no truth)."""
    task = cached_task(row.archetype_id, row.seed, row.split)
    return _built_task_data(task, f"{task.split}/{task.archetype_id}/{task.seed}")


def _built_task_data(task: Task, task_id: str, **extra: Any) -> BS4TaskData:
    """The task data of a built task: its prompt, identity and labels, plus ``extra`` fields."""
    return BS4TaskData(
        id=task_id,
        name=task.archetype_id,
        prompt=user_prompt(task),
        system_prompt=SYSTEM_PROMPT,
        archetype=task.archetype_id,
        seed=task.seed,
        split=task.split,
        difficulty=task.difficulty.value,
        category=task.category.value,
        **extra,
    )


def page_task_data(pages: str, max_page_bytes: int, row: Row) -> BS4TaskData:
    """The task data of a labelled page's row (identity: the set, its cap and the index)."""
    name = canonical_name(pages)
    task = page_task(name, row.seed, max_page_bytes)
    return _built_task_data(
        task,
        f"{task.split}/{task.row_id}",
        pages=name,
        max_page_bytes=max_page_bytes,
        row_id=task.row_id or "",
    )


def stream_task_data(row: Row) -> BS4TaskData:
    """A stream row's task data, made without generating the task: its identity, the
    registry's labels and the deferred prompt (``deferred_prompt``)."""
    spec = default_registry().get(row.archetype_id)
    return BS4TaskData(
        id=f"{row.split}/{row.archetype_id}/{row.seed}",
        name=row.archetype_id,
        prompt=deferred_prompt(row.split, row.archetype_id, row.seed),
        system_prompt=SYSTEM_PROMPT,
        archetype=row.archetype_id,
        seed=row.seed,
        split=row.split,
        difficulty=spec.difficulty.value,
        category=spec.category.value,
    )


def page_stream_task_data(pages: str, max_page_bytes: int, index: int) -> BS4TaskData:
    """A page stream row's task data, made without reading its page: the row's identity and
    labels from the loaded set, and the deferred prompt (the worker builds the task)."""
    loaded = page_set(pages, max_page_bytes)
    row = loaded.rows[index].row
    return BS4TaskData(
        id=f"{loaded.split}/{row.id}",
        name=row.family,
        prompt=deferred_prompt(loaded.split, row.family, index),
        system_prompt=SYSTEM_PROMPT,
        archetype=row.family,
        seed=index,
        split=loaded.split,
        difficulty=row.difficulty.value,
        category=Category.PAGES.value,
        pages=loaded.name,
        max_page_bytes=max_page_bytes,
        row_id=row.id,
    )


def page_stream_order(size: int, name: str) -> list[int]:
    """A page set's rows in a fixed shuffled order (seeded by the set's name), so a resumed
    run continues at the row it stopped before."""
    order = list(range(size))
    random.Random(name).shuffle(order)
    return order


def streams(config: BS4TasksetConfig) -> bool:
    """Whether ``config`` selects an endless train stream rather than a finite row list: the
    generated train split, or the training part of a page set, without ``num_examples``."""
    if config.num_examples is not None:
        return False
    if config.pages is not None:
        return config.pages_part == "train"
    return config.split == "train"


class BeautifulSoupTaskset(vf.Taskset[BS4Task, BS4TasksetConfig]):
    """HTML extraction with BeautifulSoup over seeded pages, graded deterministically."""

    def __init__(self, config: BS4TasksetConfig) -> None:
        super().__init__(config)
        if type(self) is BeautifulSoupTaskset and streams(config):
            # INFINITE is read off the class (prime-rl: ``type(taskset).INFINITE``), and
            # verifiers builds the one exported class, so the train selection switches class.
            self.__class__ = BeautifulSoupTrainStream

    def load(self) -> Iterator[BS4Task]:
        config: BS4TasksetConfig = self.config
        pages = config.page_source()
        if pages is not None:
            cap = config.max_page_bytes
            for row in page_rows(pages, cap, config.num_examples):
                yield BS4Task(page_task_data(pages, cap, row), config.task)
            return
        for row in build_rows(config.dataset_config()):
            yield BS4Task(task_data(row), config.task)

    @classmethod
    def toolsets(cls, config: BS4TasksetConfig) -> list[vf.Toolset]:
        if config.tool_scope != "shared":
            return []
        return [BS4Toolset(config.tools)]


class BeautifulSoupTrainStream(BeautifulSoupTaskset):
    """The train split as an endless stream (see the module docstring); not exported: a
    ``BeautifulSoupTaskset`` built for the train split becomes one."""

    INFINITE = True

    def load(self) -> Iterator[BS4Task]:
        config: BS4TasksetConfig = self.config
        pages = config.page_source()
        if pages is not None:
            cap = config.max_page_bytes
            order = page_stream_order(len(page_set(pages, cap)), pages)
            while True:
                for index in order:
                    yield BS4Task(page_stream_task_data(pages, cap, index), config.task)
        rows = build_rows(config.dataset_config())
        if not rows:
            raise ValueError("the train selection has no rows")
        while True:
            for row in rows:
                yield BS4Task(stream_task_data(row), config.task)
