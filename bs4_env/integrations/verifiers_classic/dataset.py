"""The classic environment's dataset: one row per (archetype, seed, split), prompts made lazily.

A classic verifiers environment holds a Hugging Face ``datasets.Dataset``. Generating every
task up front to write its prompt would cost minutes and gigabytes on the train split (over
a million rows; the trap the earlier environment fell into), and even listing the identities
in Python costs ~10 s there. So the table stores only each row's position in our own lazy
index (``build_rows``) and a ``prompt`` placeholder, and a transform turns a row into its
``prompt`` (system + user message, exactly ``initial_messages(task)``) and ``info`` (its
identity ``archetype``, ``seed``, ``split`` and the labels ``difficulty``, ``category``; in
``info`` because verifiers' env server passes only the standard row fields) when it is read by
index, as the prime-rl bridge does (``dataset[task_idx]``). The truth is never in a row: it is
rebuilt on the host at grading time.

``Dataset.to_list()`` bypasses transforms, so a row read that way has no identity and no
prompt: the environment reads its eval rows by index
(``BeautifulSoupClassicEnv._get_eval_inputs``) and refuses a rollout whose row is not a full
one (``task_of``, ``check_row_prompt``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bs4_env.episode.prompt import initial_messages
from bs4_env.pages.selection import page_rows
from bs4_env.pages.sets import canonical_name, page_task
from bs4_env.tasks.model import Task
from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import Row

if TYPE_CHECKING:
    from datasets import Dataset

TASK_CACHE_SIZE = 512
POSITION = "row"
IDENTITY_COLUMNS = ("archetype", "seed", "split")


@lru_cache(maxsize=TASK_CACHE_SIZE)
def cached_task(archetype: str, seed: int, split: str) -> Task:
    """The generated task for an identity (deterministic, so caching is safe)."""
    return build_task(archetype, seed, split)


def row_info(task: Task) -> dict[str, Any]:
    """Identity and labels of a row (the same columns as the v1 task data; never the truth)."""
    return {
        "archetype": task.archetype_id,
        "seed": task.seed,
        "split": task.split,
        "difficulty": task.difficulty.value,
        "category": task.category.value,
    }


class RowTransform:
    """Turns stored row positions into full rows (picklable: it holds only the config)."""

    def __init__(self, config: DatasetConfig) -> None:
        self.config = config
        self._rows: Sequence[Row] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.config, self._rows = state["config"], None

    def rows(self) -> Sequence[Row]:
        if self._rows is None:
            self._rows = build_rows(self.config)
        return self._rows

    def __call__(self, batch: dict[str, list[Any]]) -> dict[str, list[Any]]:
        rows = self.rows()
        tasks = [
            cached_task(row.archetype_id, row.seed, row.split)
            for row in (rows[int(position)] for position in batch[POSITION])
        ]
        return {
            **batch,
            "prompt": [initial_messages(task) for task in tasks],
            "info": [row_info(task) for task in tasks],
        }


class PageRowTransform(RowTransform):
    """The same for the rows of a page set; ``info`` also names the set, cap and row id."""

    def __init__(self, pages: str, max_page_bytes: int, num_examples: int | None) -> None:
        self.pages, self.max_page_bytes = canonical_name(pages), max_page_bytes
        self.num_examples = num_examples
        self._rows = None

    def __getstate__(self) -> dict[str, Any]:
        return {"pages": self.pages, "cap": self.max_page_bytes, "num": self.num_examples}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.pages, self.max_page_bytes = state["pages"], state["cap"]
        self.num_examples, self._rows = state["num"], None

    def rows(self) -> Sequence[Row]:
        if self._rows is None:
            self._rows = page_rows(self.pages, self.max_page_bytes, self.num_examples)
        return self._rows

    def __call__(self, batch: dict[str, list[Any]]) -> dict[str, list[Any]]:
        rows = self.rows()
        tasks = [
            page_task(self.pages, rows[int(position)].seed, self.max_page_bytes)
            for position in batch[POSITION]
        ]
        info = [
            {**row_info(task), "pages": self.pages, "max_page_bytes": self.max_page_bytes,
             "row_id": task.row_id}
            for task in tasks
        ]  # fmt: skip
        return {**batch, "prompt": [initial_messages(task) for task in tasks], "info": info}


def classic_dataset(
    config: DatasetConfig, pages: str | None = None, max_page_bytes: int = 0
) -> Dataset:
    """All rows ``config`` (or the page set ``pages``) selects, in the same order as
    ``bs4-env eval`` and the v1 taskset, with identities and prompts made only for the rows
    that are read."""
    import pyarrow as pa
    from datasets import Dataset

    transform = (
        RowTransform(config)
        if pages is None
        else PageRowTransform(pages, max_page_bytes, config.num_examples)
    )
    count = len(transform.rows())
    columns = {
        POSITION: pa.array(range(count), type=pa.int64()),
        # A placeholder, so verifiers sees a prompt column and builds none from a question.
        "prompt": pa.nulls(count),
    }
    return Dataset.from_dict(columns).with_transform(transform)


def task_of(info: Any) -> Task:
    """The task a row's ``info`` names; raises if the row is not a full one."""
    missing = [n for n in IDENTITY_COLUMNS if not isinstance(info, dict) or n not in info]
    if missing:
        raise ValueError(
            f"row info lacks {missing}: rows get their identity and prompt when read by "
            "index (dataset[i]); one read with Dataset.to_list() has neither"
        )
    if info.get("pages"):
        return page_task(str(info["pages"]), int(info["seed"]), int(info["max_page_bytes"]))
    return cached_task(str(info["archetype"]), int(info["seed"]), str(info["split"]))


def check_row_prompt(task: Task, prompt: list[dict[str, str]]) -> None:
    """Raise unless the prompt a rollout got is the engine's for its task."""
    expected = initial_messages(task)
    if prompt == expected:
        return
    where = f"{len(prompt)} messages instead of {len(expected)}"
    for index, (got, want) in enumerate(zip(prompt, expected, strict=False)):
        if got != want:
            shorter = min(len(got["content"]), len(want["content"]))
            pairs = zip(got["content"], want["content"], strict=False)
            at = next((i for i, (a, b) in enumerate(pairs) if a != b), shorter)
            where = (
                f"message {index} ({got['role']}) differs at character {at}: "
                f"{got['content'][at : at + 60]!r} instead of {want['content'][at : at + 60]!r}"
            )
            break
    raise ValueError(
        f"rollout {task.split}/{task.archetype_id}/{task.seed} got a prompt that is not the "
        f"engine's for its row: {where}"
    )
