"""An episode plan (the assistant's tool calls and how its final reply is made) and a host
dry run of plan code, used to choose among candidate programs before the sandbox replay."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from bs4 import BeautifulSoup

from bs4_env.sft.locate import parse
from bs4_env.sft.read_only import reads_only
from bs4_env.tasks.model import Task

AnswerFrom = Literal["text", "json", "final_json", "limit", "given"]
PARSERS = ("html.parser", "lxml", "html5lib")


@dataclass(frozen=True)
class Step:
    """One assistant tool call, with an optional short sentence before it. ``trained=False``
    marks a deliberately wrong program the episode shows failing: the model sees it and its
    error, and the trainer leaves its tokens out of the loss (``untrained_turns``)."""

    tool: Literal["run_python", "navigate"]
    argument: str
    note: str = ""
    trained: bool = True


@dataclass(frozen=True)
class Plan:
    """What the assistant does. ``answer_from`` says how the final reply is read off the last
    ``run_python`` output: its text (``text``), its JSON (``json``), the whole final object it
    printed (``final_json``), an abstention (``limit``, with ``limit`` as the object), or
    ``final`` as written (``given``: a budget episode, whose last call is refused).
    ``budget_calls``: the tool-call budget the episode runs under (None: the default)."""

    kind: str
    steps: tuple[Step, ...]
    answer_from: AnswerFrom
    limit: dict[str, str] | None = None
    tags: tuple[str, ...] = field(default_factory=tuple)
    budget_calls: int | None = None
    final: str | None = None


def soup_line(parser: str) -> str:
    return "soup = make_soup()" if parser == "html.parser" else f'soup = make_soup("{parser}")'


# One ``sft-data`` run asks for the same program on the same page again and again: the mix
# draws each row's base plans, and its episode draws them again with the same RNG (about 40%
# of the calls, each a fresh parse of the page, 2026-12-06). Within ``shared_outcomes``
# the outcome is kept by (page digest, code); outside it every call runs.
_OUTCOMES: OrderedDict[tuple[bytes, str], tuple[str, Exception | None]] | None = None
MAX_SHARED_OUTCOMES = 4096
# The distinct programs run on one page (a row's writers, looks, mistakes and repairs: about
# 17 a row, 2026-12-06) each parsed it again, most of ``sft-data``'s host time. Within the
# block a program that provably leaves its tree as parsed (``read_only.reads_only``) gets the
# page's shared tree: ``locate.parse``'s for html.parser (the writers' own, read-only too),
# one kept here per (page, parser) for the others. A row's dry runs are one synchronous call.
_TREES: OrderedDict[tuple[bytes, str], BeautifulSoup] | None = None
MAX_SHARED_TREES = 4


@contextlib.contextmanager
def shared_outcomes() -> Iterator[None]:
    """Within the block, ``host_outcome`` runs each (page, code) once and answers repeats
    from a bounded store (dropped at the end). The outcome is a function of the page and
    the code (our own programs: they read the page they are given and nothing else), so a
    repeat gets what running it again gives; the stored exception has no traceback."""
    global _OUTCOMES, _TREES
    outer, _OUTCOMES = _OUTCOMES, OrderedDict() if _OUTCOMES is None else _OUTCOMES
    _TREES = OrderedDict() if _TREES is None else _TREES
    try:
        yield
    finally:
        if outer is None:
            _OUTCOMES = _TREES = None


def host_outcome(task: Task, code: str, url: str | None = None) -> tuple[str, Exception | None]:
    """stdout of ``code`` run here, on our own generated code only (never model code), and
    the exception it raised (None if it ran through). A cheap filter: the sandbox replay is
    what decides."""
    html = task.pages[url or task.start_url]
    store = _OUTCOMES
    if store is None:
        return _run(html, code)
    digest = hashlib.sha256(html.encode()).digest()
    key = (digest, code)
    found = store.get(key)
    if found is None:
        shared = digest if reads_only(code) else None
        found = store[key] = _detached(*_run(html, code, shared))
        if len(store) > MAX_SHARED_OUTCOMES:
            store.popitem(last=False)
    return found


def _shared_tree(html: str, digest: bytes, parser: str) -> BeautifulSoup:
    if parser == "html.parser":
        return parse(html)
    trees = _TREES
    if trees is None:
        raise RuntimeError("a shared tree is only kept within shared_outcomes()")
    key = (digest, parser)
    tree = trees.get(key)
    if tree is None:
        tree = trees[key] = BeautifulSoup(html, parser)
        if len(trees) > MAX_SHARED_TREES:
            trees.popitem(last=False)
    else:
        trees.move_to_end(key)
    return tree


def _run(html: str, code: str, shared: bytes | None = None) -> tuple[str, Exception | None]:
    """``shared``: the page's digest where ``code`` reads only; its first tree of each parser
    is then the page's shared one (a second ``make_soup`` of a parser is a fresh parse, as a
    program that compares its two trees by identity expects)."""
    out = io.StringIO()
    given: set[str] = set()

    def make_soup(parser: str = "html.parser") -> BeautifulSoup:
        if shared is None or parser in given:
            return BeautifulSoup(html, parser)
        given.add(parser)
        return _shared_tree(html, shared, parser)

    namespace: dict[str, Any] = {"HTML": html, "make_soup": make_soup}
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "<plan>", "exec"), namespace)
    except Exception as error:  # the broken programs of fix episodes raise on purpose
        return out.getvalue(), error
    return out.getvalue(), None


def _detached(stdout: str, error: Exception | None) -> tuple[str, Exception | None]:
    """The outcome without the traceback frames (they hold the program's parsed page)."""
    seen: set[int] = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        link.__traceback__ = None
        link = link.__context__
    return stdout, error


def host_run(task: Task, code: str, url: str | None = None) -> str | None:
    """stdout of ``code`` run here (see ``host_outcome``), or None when it raises."""
    stdout, error = host_outcome(task, code, url)
    return None if error is not None else stdout


def answer_of(stdout: str, answer_from: AnswerFrom) -> Any:
    """The answer a plan's final reply gives, read off the printed output (ValueError if none)."""
    if answer_from == "text":
        return stdout[:-1] if stdout.endswith("\n") else stdout
    if answer_from == "json":
        return json.loads(stdout)
    raise ValueError(f"no answer value for {answer_from}")


def final_reply(stdout: str, plan: Plan) -> str:
    """The final assistant message: a status object built from what the last run printed."""
    if plan.answer_from == "given":
        if plan.final is None:
            raise ValueError("a plan answering 'given' needs its final reply")
        return plan.final
    if plan.answer_from == "limit":
        return json.dumps({"status": "limit", "limit": plan.limit}, ensure_ascii=False)
    if plan.answer_from == "final_json":
        return stdout.strip()
    answer = answer_of(stdout, plan.answer_from)
    return json.dumps({"status": "ok", "answer": answer}, ensure_ascii=False)
