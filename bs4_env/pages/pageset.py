"""A rows file loaded and checked as a whole, and each row as a ``Task`` for the engine.

Everything that can be wrong with a row fails here, at load, with the row id and the reason:
bad JSON or fields, a missing page, a hash mismatch, a page over the size cap, an unknown
normaliser or option, an accepted value that is no value of its normaliser's kind or too long
for a final answer, declared secrets or evidence that are not on the page. A run never meets
a bad row halfway.

Rows are served interleaved by family, in proportion (file order within a family; the first
row of every family first), so a prefix (``-n``, ``num_examples``) is a stratified sample.
A page is read again (and decoded, with a small cache) when its task is built, so a large set
costs no memory.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from bs4_env.grading.answer import MAX_FINAL_CHARS
from bs4_env.pages.accepted import AcceptedAnswers, default_answer_schema
from bs4_env.pages.cache import cache_root, cached_page
from bs4_env.pages.decode import decode_page, page_bytes
from bs4_env.pages.normalizers import NormalizationError, Normalizer, parse_normalization
from bs4_env.pages.rows import PageRow, PageRowError, read_rows
from bs4_env.pages.rule import clipped_repr
from bs4_env.tasks.model import Category, LimitationInfo, Normalization, Task

NEUTRAL_URL = "https://page.example/"
"""The page URL the prompt shows unless a row sets ``show_url`` (real URLs hold answers)."""
DEFAULT_MAX_PAGE_BYTES = 2_500_000
"""Largest page (its UTF-8 text) a row may have. Real pages of `real` reach 1.96 MB; html.parser
needs about 9 s of the 10 s budget on some 2.7 MB pages (docs/real-pages.md)."""
FORMAT_VERSION = 1
PAGE_CACHE_SIZE = 16


@dataclass(frozen=True)
class LoadedRow:
    """A checked row with what its page load found."""

    row: PageRow
    path: Path | None
    normalizer: Normalizer
    page_chars: int
    page_bytes: int
    encoding: str


@dataclass(frozen=True)
class PageSet:
    """The checked rows of one file, in serving order."""

    name: str
    """``real`` or the rows file path (what the task split and identities carry)."""
    split: str
    rows: tuple[LoadedRow, ...]
    max_page_bytes: int

    def __len__(self) -> int:
        return len(self.rows)

    def families(self) -> Counter[str]:
        return Counter(loaded.row.family for loaded in self.rows)

    def task(self, index: int) -> Task:
        """The task of the ``index``-th row (its page read, checked and decoded)."""
        loaded = self.rows[index]
        row = loaded.row
        html = _page_text(row, loaded.path)
        start_url = row.url if row.show_url and row.url else NEUTRAL_URL
        limitation = LimitationInfo(row.limit_reasons, row.evidence) if row.evidence else None
        return Task(
            archetype_id=row.family,
            seed=index,
            split=self.split,
            html=html,
            pages=MappingProxyType({start_url: html}),
            start_url=start_url,
            query=row.request,
            query_template=row.request,
            answer_schema=row.answer_schema or default_answer_schema(loaded.normalizer),
            normalization=Normalization(),
            truth=row.accepted[0] if row.accepted else None,
            solvable=row.solvable,
            limitation=limitation,
            secrets=row.secrets,
            difficulty=row.difficulty,
            category=Category.PAGES,
            generator_version=FORMAT_VERSION,
            free_tool_calls=row.free_tool_calls,
            answer_check=AcceptedAnswers(row.accepted, loaded.normalizer),
            row_id=row.id,
            timeout_s=row.timeout_s,
        )

    def index_of(self, row_id: str) -> int:
        for index, loaded in enumerate(self.rows):
            if loaded.row.id == row_id:
                return index
        raise KeyError(f"no row {row_id!r} in {self.name}")


def _page_file(row: PageRow, rows_dir: Path) -> Path | None:
    if row.html is not None:
        return None
    if row.html_path is not None:
        return rows_dir / row.html_path
    if row.source is not None:
        return cached_page(row.source)
    raise PageRowError("no page: give 'html', 'html_path' or 'source'")


def _read_checked(row: PageRow, path: Path | None) -> tuple[bytes, str]:
    """The page's bytes (unpacked) and the name they come from, hash-checked."""
    if path is None:
        raw = (row.html or "").encode("utf-8")
        name = "inline html"
    else:
        if not path.is_file():
            hint = " (run `bs4-env real fetch` for fetched pages)" if row.source else ""
            raise ValueError(f"page file {path} does not exist{hint}")
        raw, name = path.read_bytes(), str(path)
    if row.sha256 is not None:
        digest = hashlib.sha256(raw).hexdigest()
        if digest != row.sha256:
            raise ValueError(
                f"{name} has sha256 {digest}, the row says {row.sha256}: the page changed or "
                "is not the labelled one"
            )
    return page_bytes(raw, name), name


def _page_text(row: PageRow, path: Path | None) -> str:
    return _decoded(str(path) if path else None, row.html, row.sha256, row.charset)


@lru_cache(maxsize=PAGE_CACHE_SIZE)
def _decoded(path: str | None, html: str | None, sha256: str | None, charset: str | None) -> str:
    """A page's text, hash-checked again (the file may have changed since the load)."""
    if path is None:
        return decode_page((html or "").encode("utf-8"), charset).text
    raw = Path(path).read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != sha256:
        raise PageRowError(f"{path} changed after the rows loaded (sha256 {digest})")
    return decode_page(page_bytes(raw, path), charset).text


def _check_row(row: PageRow, rows_dir: Path, max_page_bytes: int) -> LoadedRow:
    path = _page_file(row, rows_dir)
    raw, _name = _read_checked(row, path)
    page = decode_page(raw, row.charset)
    size = len(page.text.encode("utf-8", "surrogatepass"))
    if size > max_page_bytes:
        raise ValueError(
            f"the page is {size:,} bytes of UTF-8, over the cap of {max_page_bytes:,} "
            "(max_page_bytes): a page that large risks parser timeouts; raise the cap only "
            "with a per-row timeout_s"
        )
    page_url = row.url or NEUTRAL_URL
    shown = row.url if row.show_url and row.url else NEUTRAL_URL
    try:
        normalizer = parse_normalization(row.normalization, page_url, shown)
    except NormalizationError as error:
        raise ValueError(str(error)) from None
    for value in row.accepted:
        problem = None if value is None else normalizer.label_problem(value)
        if problem is not None:
            raise ValueError(f"accepted value {clipped_repr(value)} {problem}")
        reply = json.dumps(
            {"status": "ok", "answer": value}, ensure_ascii=False, separators=(",", ":")
        )
        if len(reply) > MAX_FINAL_CHARS:
            raise ValueError(
                f"accepted value {clipped_repr(value)} needs a final message of {len(reply):,} "
                f"characters, over the grader's cap of {MAX_FINAL_CHARS:,}: no answer can give it"
            )
    for label, values in (("secret", row.secrets), ("evidence", row.evidence)):
        missing = [value for value in values if value not in page.text]
        if missing:
            raise ValueError(f"declared {label} {missing[0]!r} does not occur on the page")
    return LoadedRow(row, path, normalizer, len(page.text), size, page.encoding)


def stratified(rows: Sequence[PageRow]) -> list[PageRow]:
    """Rows interleaved by family in proportion: the first row of every family comes first,
    then the k-th of a family's n rows sits at (k + 1/2) / n; families in order of first
    appearance break ties."""
    by_family: dict[str, list[PageRow]] = {}
    for row in rows:
        by_family.setdefault(row.family, []).append(row)
    keyed = [
        ((k + 0.5) / len(members) if k else 0.0, order, k, row)
        for order, members in enumerate(by_family.values())
        for k, row in enumerate(members)
    ]
    return [row for *_key, row in sorted(keyed, key=lambda item: item[:3])]


def load_page_set(
    rows_path: Path,
    name: str,
    split: str,
    max_page_bytes: int,
    keep: Callable[[PageRow], bool] | None = None,
) -> PageSet:
    """Read and check every row and page of ``rows_path`` (see the module docstring); with
    ``keep``, only the rows it keeps (an empty selection is an error)."""
    if max_page_bytes < 1:
        raise PageRowError(f"max_page_bytes must be >= 1, got {max_page_bytes}")
    rows = read_rows(rows_path)
    if keep is not None:
        rows = [row for row in rows if keep(row)]
        if not rows:
            raise PageRowError(f"{name}: no row of {rows_path} is in this part")
    loaded = []
    for row in stratified(rows):
        try:
            loaded.append(_check_row(row, rows_path.parent, max_page_bytes))
        except (ValueError, OSError) as error:
            raise PageRowError(f"row {row.id!r} (line {row.line}): {error}") from None
    return PageSet(name, split, tuple(loaded), max_page_bytes)


__all__ = ["DEFAULT_MAX_PAGE_BYTES", "NEUTRAL_URL", "PageSet", "cache_root", "load_page_set"]
