"""The JSONL row format of labelled pages, parsed and checked field by field.

One JSON object per line (blank lines and lines starting with ``#`` are skipped)::

    {"id": "shop-17", "html_path": "pages/shop-17.html", "sha256": "<hex of the file>",
     "request": "The product's current price, as a number.", "answer": {"any_of": ["220", "199"]},
     "normalization": {"kind": "decimal", "decimal_separator": ","}, "family": "price"}

The page is one of ``html`` (inline), ``html_path`` (relative to the rows file) or, with
neither, the file ``source`` names (``{"repo", "commit", "path"}``), fetched into the page
cache. ``answer`` is the accepted value, ``{"any_of": [...]}`` for several, or ``null`` for
"not on this page" (answered as ``{"status": "ok", "answer": null}``); a row that declares
``limit`` (``{"reasons": [...], "evidence": [...]}``) has no answer. Every field and its
default is in ``FIELDS``; an unknown field is an error, as is any bad value.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bs4_env.tasks.model import Difficulty, JSONValue, LimitReason

FIELDS: dict[str, str] = {
    "id": "unique row id (letters, digits, . _ : / -)",
    "request": "the extraction request the model gets",
    "answer": 'the label: a JSON value, {"any_of": [...]} or null (not on this page)',
    "limit": '{"reasons": [...], "evidence": [...]} for a page that cannot be extracted',
    "html": "the page inline",
    "html_path": "the page file, relative to the rows file (.gz is unpacked)",
    "source": '{"repo": "owner/name", "commit": "<40 hex>", "path": "..."} upstream file',
    "sha256": "hex SHA-256 of the page file's bytes (required unless html is inline)",
    "charset": "the page's charset when it is not UTF-8 and declares none (else read)",
    "url": "the page's own URL (url answers resolve against it; shown only with show_url)",
    "show_url": "false (default): the prompt shows a neutral URL",
    "normalization": 'text (default), decimal, date, url, exact, list, record, or {"kind": ...}',
    "answer_schema": "the answer shape shown in the prompt (default: by normaliser)",
    "family": "the group results are reported by (default: page)",
    "difficulty": "primer, easy, medium (default) or hard",
    "secrets": "strings on the page the final message must never repeat (default: none)",
    "timeout_s": "seconds per run_python call for this row (default: the budget's)",
    "free_tool_calls": "tool calls before the efficiency factor drops (default 3)",
    "license": "the licence of the label (and page) as its source states it",
}
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/\-]{0,127}")
FAMILY_PATTERN = re.compile(r"[a-z][a-z0-9_]{1,47}")
SHA256_PATTERN = re.compile(r"[0-9a-f]{64}")
COMMIT_PATTERN = re.compile(r"[0-9a-f]{40}")
REPO_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*/[A-Za-z0-9][A-Za-z0-9_.\-]*")
MAX_ROW_TIMEOUT_S = 60.0
DEFAULT_FAMILY = "page"
ANY_OF = "any_of"


class PageRowError(ValueError):
    """A bad row: the message names the row (id or line) and what is wrong."""


@dataclass(frozen=True)
class Source:
    """Where a page comes from upstream: a file of a repository at a commit."""

    repo: str
    commit: str
    path: str


@dataclass(frozen=True)
class PageRow:
    """One checked row (its page not read yet)."""

    id: str
    line: int
    request: str
    accepted: tuple[JSONValue, ...]
    """Accepted answers; ``(None,)`` for "not on this page"; empty for a limitation row."""
    limit_reasons: tuple[LimitReason, ...]
    evidence: tuple[str, ...]
    html: str | None
    html_path: str | None
    source: Source | None
    sha256: str | None
    charset: str | None
    url: str | None
    show_url: bool
    normalization: JSONValue
    answer_schema: str | None
    family: str
    difficulty: Difficulty
    secrets: tuple[str, ...]
    timeout_s: float | None
    free_tool_calls: int
    license: str | None

    @property
    def solvable(self) -> bool:
        return not self.limit_reasons


def _string(row: dict[str, Any], name: str, *, required: bool = False) -> str | None:
    value = row.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name!r} must be a non-empty string")
    return value


def _strings(row: dict[str, Any], name: str) -> tuple[str, ...]:
    value = row.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"{name!r} must be a list of non-empty strings")
    return tuple(value)


def _accepted(row: dict[str, Any]) -> tuple[JSONValue, ...]:
    if "limit" in row:
        if "answer" in row:
            raise ValueError("a row with 'limit' has no 'answer'")
        return ()
    if "answer" not in row:
        raise ValueError("'answer' is missing (use null for a fact that is not on the page)")
    answer = row["answer"]
    if isinstance(answer, dict) and ANY_OF in answer:
        values = answer[ANY_OF]
        if len(answer) != 1 or not isinstance(values, list) or not values:
            raise ValueError('"any_of" must be the only key, with a non-empty list')
        if any(value is None for value in values):
            raise ValueError('null is not an accepted value inside "any_of"')
        return tuple(values)
    return (answer,)


def _limit(row: dict[str, Any]) -> tuple[tuple[LimitReason, ...], tuple[str, ...]]:
    limit = row.get("limit")
    if limit is None:
        return (), ()
    if not isinstance(limit, dict) or set(limit) != {"reasons", "evidence"}:
        raise ValueError('\'limit\' must be {"reasons": [...], "evidence": [...]}')
    valid = [reason.value for reason in LimitReason]
    names = _strings(limit, "reasons")
    unknown = [name for name in names if name not in valid]
    if not names or unknown:
        raise ValueError(f"limit reasons must be a non-empty list from {valid}, got {names}")
    evidence = _strings(limit, "evidence")
    if not evidence:
        raise ValueError("a limitation row needs its evidence (strings on the blocking element)")
    return tuple(LimitReason(name) for name in names), evidence


def _source(row: dict[str, Any]) -> Source | None:
    value = row.get("source")
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"repo", "commit", "path"}:
        raise ValueError('\'source\' must be {"repo", "commit", "path"}')
    repo, commit, path = value["repo"], value["commit"], value["path"]
    if not isinstance(repo, str) or not REPO_PATTERN.fullmatch(repo):
        raise ValueError(f"source repo must be owner/name, got {repo!r}")
    if not isinstance(commit, str) or not COMMIT_PATTERN.fullmatch(commit):
        raise ValueError(f"source commit must be 40 lower-case hex digits, got {commit!r}")
    parts = path.split("/") if isinstance(path, str) else [""]
    if any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"source path must be a relative file path, got {path!r}")
    return Source(repo, commit, path)


def _page_fields(row: dict[str, Any]) -> tuple[str | None, str | None, Source | None, str | None]:
    html = row.get("html")
    if html is not None and not isinstance(html, str):
        raise ValueError("'html' must be a string")
    html_path = _string(row, "html_path")
    source = _source(row)
    if (html is not None) + (html_path is not None) > 1:
        raise ValueError("give one of 'html' and 'html_path'")
    if html is None and html_path is None and source is None:
        raise ValueError("no page: give 'html', 'html_path' or 'source'")
    sha256 = _string(row, "sha256")
    if sha256 is not None and not SHA256_PATTERN.fullmatch(sha256):
        raise ValueError("'sha256' must be 64 lower-case hex digits")
    if sha256 is None and html is None:
        raise ValueError("'sha256' (of the page file) is required for a page read from a file")
    return html, html_path, source, sha256


def _number(row: dict[str, Any], name: str, low: float, high: float) -> float | None:
    value = row.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not low < value <= high:
        raise ValueError(f"{name!r} must be a number in ({low}, {high}], got {value!r}")
    return float(value)


def parse_row(row: object, line: int) -> PageRow:
    """One row of the file, checked; raises ``PageRowError`` naming the row."""
    name = f"line {line}"
    try:
        if not isinstance(row, dict):
            raise ValueError("a row must be a JSON object")
        if isinstance(row.get("id"), str):
            name = f"row {row['id']!r} (line {line})"
        unknown = sorted(set(row) - set(FIELDS))
        if unknown:
            raise ValueError(f"unknown field(s) {unknown}; valid: {list(FIELDS)}")
        row_id = _string(row, "id", required=True) or ""
        if not ID_PATTERN.fullmatch(row_id):
            raise ValueError(f"id must match {ID_PATTERN.pattern}")
        reasons, evidence = _limit(row)
        html, html_path, source, sha256 = _page_fields(row)
        show_url = row.get("show_url", False)
        if not isinstance(show_url, bool):
            raise ValueError("'show_url' must be true or false")
        url = _string(row, "url")
        if show_url and url is None:
            raise ValueError("'show_url' needs the page's 'url'")
        family = row.get("family", DEFAULT_FAMILY)
        if not isinstance(family, str) or not FAMILY_PATTERN.fullmatch(family):
            raise ValueError(f"family must match {FAMILY_PATTERN.pattern}, got {family!r}")
        difficulty = row.get("difficulty", Difficulty.MEDIUM.value)
        if difficulty not in {d.value for d in Difficulty}:
            raise ValueError(f"difficulty must be one of {[d.value for d in Difficulty]}")
        free = row.get("free_tool_calls", 3)
        if isinstance(free, bool) or not isinstance(free, int) or free < 1:
            raise ValueError("'free_tool_calls' must be an integer >= 1")
        return PageRow(
            id=row_id,
            line=line,
            request=_string(row, "request", required=True) or "",
            accepted=_accepted(row),
            limit_reasons=reasons,
            evidence=evidence,
            html=html,
            html_path=html_path,
            source=source,
            sha256=sha256,
            charset=_string(row, "charset"),
            url=url,
            show_url=show_url,
            normalization=row.get("normalization", "text"),
            answer_schema=_string(row, "answer_schema"),
            family=family,
            difficulty=Difficulty(difficulty),
            secrets=_strings(row, "secrets"),
            timeout_s=_number(row, "timeout_s", 0.0, MAX_ROW_TIMEOUT_S),
            free_tool_calls=free,
            license=_string(row, "license"),
        )
    except ValueError as error:
        raise PageRowError(f"{name}: {error}") from None


def read_rows(path: Path) -> list[PageRow]:
    """Every row of a JSONL file, checked; the first bad one raises ``PageRowError``."""
    if not path.is_file():
        raise PageRowError(f"rows file {path} does not exist")
    rows: list[PageRow] = []
    seen: dict[str, int] = {}
    for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise PageRowError(f"{path}: line {line}: bad JSON: {error}") from None
        row = parse_row(value, line)
        if row.id in seen:
            raise PageRowError(
                f"row {row.id!r} (line {line}): id already used on line {seen[row.id]}"
            )
        seen[row.id] = line
        rows.append(row)
    if not rows:
        raise PageRowError(f"rows file {path} has no rows")
    return rows
