"""Naming a page set: ``real`` (the shipped real-page evaluation rows, pages fetched into the
cache) or the path of your own rows file; loaded once per process and option set.

Identities that cross processes (a verifiers tool server, a classic row's ``info``) carry the
canonical name (``real`` or an absolute path), the cap and the row index.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES, PageSet, load_page_set
from bs4_env.tasks.model import Task

REAL = "real"
REAL_ROWS = Path(__file__).resolve().parent.parent / "real" / "data" / "real.jsonl"
PAGES_SPLIT = "pages"
"""The split a task from your own rows records (the ``real`` set's tasks record ``real``)."""
TASK_CACHE_SIZE = 64


def canonical_name(pages: str) -> str:
    """``real``, or the rows file as an absolute path (so another process finds it)."""
    if pages == REAL:
        return REAL
    return str(Path(pages).expanduser().resolve())


@lru_cache(maxsize=8)
def _load(name: str, max_page_bytes: int) -> PageSet:
    if name == REAL:
        return load_page_set(REAL_ROWS, REAL, REAL, max_page_bytes)
    return load_page_set(Path(name), name, PAGES_SPLIT, max_page_bytes)


def page_set(pages: str, max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES) -> PageSet:
    """The checked page set ``pages`` names (``real`` or a rows file path)."""
    return _load(canonical_name(pages), max_page_bytes)


@lru_cache(maxsize=TASK_CACHE_SIZE)
def page_task(pages: str, index: int, max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES) -> Task:
    """The task of row ``index`` of a page set (cached: building reads the page)."""
    return page_set(pages, max_page_bytes).task(index)
