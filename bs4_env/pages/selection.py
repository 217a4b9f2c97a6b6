"""Page-set rows for the runners: ``Row(family, index, split)`` identities, the task builder
for them, and what a results file records about the set."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bs4_env.episode.page_timeout import page_timeout_rule
from bs4_env.pages.sets import canonical_name, page_set, page_task, rows_path
from bs4_env.tasks.model import Task
from bs4_env.tasks.splits import Row


def rows_file(pages: str) -> Path:
    return rows_path(pages)


def rows_version(pages: str) -> str:
    """The rows file's SHA-256 (12 hex digits): results of different row sets never mix."""
    return hashlib.sha256(rows_file(pages).read_bytes()).hexdigest()[:12]


def page_rows(pages: str, max_page_bytes: int, num: int | None = None) -> list[Row]:
    """The first ``num`` rows of the set in serving order (a prefix covers every family in
    proportion), as runner identities; loading checks every row and page first."""
    loaded = page_set(pages, max_page_bytes)
    if num is not None and num < 1:
        raise ValueError(f"the number of rows must be >= 1, got {num}")
    count = len(loaded) if num is None else min(num, len(loaded))
    return [Row(loaded.rows[i].row.family, i, loaded.split) for i in range(count)]


def page_task_builder(pages: str, max_page_bytes: int) -> Callable[[Row], Task]:
    name = canonical_name(pages)

    def build(row: Row) -> Task:
        return page_task(name, row.seed, max_page_bytes)

    return build


def pages_header(pages: str, max_page_bytes: int) -> dict[str, Any]:
    """Results-file fields that say which set ran (an evaluation set: reported on its own)."""
    loaded = page_set(pages, max_page_bytes)
    return {
        "pages": loaded.name,
        "pages_version": rows_version(pages),
        "families": dict(sorted(loaded.families().items())),
        "max_page_bytes": max_page_bytes,
        "page_timeout": page_timeout_rule(),
    }
