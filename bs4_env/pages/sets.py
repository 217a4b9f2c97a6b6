"""Naming a page set: ``real`` or ``real2`` (the shipped real-page evaluation rows, pages
fetched into the cache) or the path of your own rows file, optionally one part of it
(``train`` or ``eval``); loaded once per process and option set.

Parts split by site, so that no site of the evaluation rows is a training site (pages of one
site share templates): ``real2``'s training part is its own file of recipe pages from other
sites (``real2-train.jsonl``; ``scripts/build_real_rows.py`` makes both); a rows file's parts
split its rows by the host of each row's ``url`` (``host_part``). ``real`` has no training part.

Identities that cross processes (a verifiers tool server, a classic row's ``info``) carry the
canonical name (``real``, ``real2#train``, an absolute path, ``/abs/rows.jsonl#train``), the
cap and the row index.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from bs4_env.pages.cache import cache_root
from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES, PageSet, load_page_set
from bs4_env.pages.rows import PageRow, PageRowError
from bs4_env.tasks.model import Task

REAL = "real"
REAL2 = "real2"
DATA = Path(__file__).resolve().parent.parent / "real" / "data"
REAL_ROWS = DATA / "real.jsonl"
REAL2_ROWS = DATA / "real2.jsonl"
REAL2_TRAIN_ROWS = DATA / "real2-train.jsonl"
NAMED_SETS = {REAL: REAL_ROWS, REAL2: REAL2_ROWS}
TRAIN_FILES = {REAL2: REAL2_TRAIN_ROWS}
PARTS = ("train", "eval")
PART_MARK = "#"
TRAIN = "train"
PAGES_SPLIT = "pages"
"""The split a task from your own rows records (a named set's tasks record its name)."""
TRAIN_SPLIT_SUFFIX = "-train"
USER_EVAL_SHARE = 77
"""A rows file's host is an evaluation host when the first byte of sha256("pages|" + host)
is below this (about 30% of hosts)."""
TASK_CACHE_SIZE = 64


def host_of(url: str) -> str:
    """A page's site: its URL's host, lower-case, without a leading ``www.``."""
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


def host_part(row: PageRow) -> str:
    """``train`` or ``eval``: the part of a rows file that row's site falls in."""
    if not row.url or not host_of(row.url):
        raise PageRowError(f"row {row.id!r} (line {row.line}): a part needs the row's 'url'")
    digest = hashlib.sha256(f"pages|{host_of(row.url)}".encode()).digest()
    return "eval" if digest[0] < USER_EVAL_SHARE else TRAIN


def canonical_name(pages: str, part: str | None = None) -> str:
    """``real``/``real2`` or the rows file as an absolute path (so another process finds it),
    with ``#train`` or ``#eval`` for a part (given here or already in ``pages``)."""
    base, mark, given = pages.rpartition(PART_MARK)
    if not mark or given not in PARTS:
        base, given = pages, ""
    if part is not None and part not in PARTS:
        raise ValueError(f"a page set's part is one of {list(PARTS)}, got {part!r}")
    if part and given and part != given:
        raise ValueError(f"{pages!r} already names the {given!r} part, not {part!r}")
    chosen = part or given
    name = base if base in NAMED_SETS else str(Path(base).expanduser().resolve())
    if base == REAL and chosen == TRAIN:
        raise ValueError(f"{REAL!r} has no training part; use {REAL2!r} with the train part")
    return f"{name}{PART_MARK}{chosen}" if chosen else name


def split_name(name: str) -> tuple[str, str]:
    """A canonical name as (set or path, part or "")."""
    base, mark, part = name.rpartition(PART_MARK)
    return (base, part) if mark and part in PARTS else (name, "")


def rows_path(pages: str) -> Path:
    """The rows file a (canonical or given) page-set name reads."""
    base, part = split_name(canonical_name(pages))
    if base in NAMED_SETS:
        return TRAIN_FILES[base] if part == TRAIN else NAMED_SETS[base]
    return Path(base)


# Keyed by the page cache's folder too: a set loaded from one cache (or found missing there)
# says nothing about another ($BS4ENV_CACHE may change within a process, as in tests).
@lru_cache(maxsize=8)
def _load(name: str, max_page_bytes: int, _cache: Path) -> PageSet:
    base, part = split_name(name)
    path = rows_path(name)
    if base in NAMED_SETS:
        split = base + TRAIN_SPLIT_SUFFIX if part == TRAIN else base
        return load_page_set(path, name, split, max_page_bytes)
    keep = (lambda row: host_part(row) == part) if part else None
    return load_page_set(path, name, PAGES_SPLIT, max_page_bytes, keep)


def page_set(pages: str, max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES) -> PageSet:
    """The checked page set ``pages`` names (see ``canonical_name``)."""
    return _load(canonical_name(pages), max_page_bytes, cache_root())


def page_splits() -> frozenset[str]:
    """Every split a labelled-page task can record."""
    named = {name + suffix for name in NAMED_SETS for suffix in ("", TRAIN_SPLIT_SUFFIX)}
    return frozenset({*named, PAGES_SPLIT})


def page_task(pages: str, index: int, max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES) -> Task:
    """The task of row ``index`` of a page set (cached: building reads the page)."""
    return _page_task(pages, index, max_page_bytes, cache_root())


@lru_cache(maxsize=TASK_CACHE_SIZE)
def _page_task(pages: str, index: int, max_page_bytes: int, _cache: Path) -> Task:
    return page_set(pages, max_page_bytes).task(index)
