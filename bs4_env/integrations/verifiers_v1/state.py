"""Per-rollout state shared by the host (``trace.state``) and the tool server (``self.state``),
and the one function both sides use to run a tool call through the episode engine.

verifiers syncs the whole state before and after every tool call (last write wins; calls of
one turn run one after another), so the engine's ``EpisodeState`` rides here as a dict and
every call rebuilds ``Episode(task, executor, budgets, state)`` around it. Tasks are rebuilt
from their identity (archetype, seed, split), off the event loop (a page can take tens of
milliseconds to generate, and every rollout of the process shares the loop), and kept in a
small LRU cache per process.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Any

import verifiers.v1 as vf
from pydantic import Field

from bs4_env.episode.engine import Budgets, Episode, EpisodeState
from bs4_env.episode.executors import make_executor
from bs4_env.pages.sets import page_task
from bs4_env.sandbox.base import ExecRequest, ExecResult, Executor
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import build_task

TASK_CACHE_SIZE = 512


class BS4State(vf.State):
    """What a rollout carries between the host and the tool server (never the truth)."""

    archetype: str = ""
    seed: int = -1
    split: str = ""
    episode: dict[str, Any] = Field(default_factory=dict)
    host_calls: int = 0
    """Tool calls answered on the host because the tool could not take their arguments."""
    host_replies: dict[str, str] = Field(default_factory=dict)
    """The engine's reply to each host-answered call, by tool-call id (see ``host_calls``)."""
    pages: str = ""
    """For a labelled page: its set (``real`` or a rows file); ``seed`` is the row index."""
    max_page_bytes: int = 0


@lru_cache(maxsize=TASK_CACHE_SIZE)
def cached_task(archetype: str, seed: int, split: str) -> Task:
    """The generated task for an identity (generation is deterministic, so caching is safe)."""
    return build_task(archetype, seed, split)


def task_of(archetype: str, seed: int, split: str, pages: str, max_page_bytes: int) -> Task:
    """A generated task by identity, or row ``seed`` of the page set ``pages``."""
    if pages:
        return page_task(pages, seed, max_page_bytes)
    return cached_task(archetype, seed, split)


async def task_off_loop(
    archetype: str, seed: int, split: str, pages: str, max_page_bytes: int
) -> Task:
    """``task_of`` without blocking the event loop (a page is generated or read in a thread)."""
    return await asyncio.to_thread(task_of, archetype, seed, split, pages, max_page_bytes)


def start_state(state: BS4State, task: Task, pages: str = "", max_page_bytes: int = 0) -> None:
    """Point a fresh rollout state at ``task`` (called in ``Task.setup`` on the host)."""
    state.archetype, state.seed, state.split = task.archetype_id, task.seed, task.split
    state.pages, state.max_page_bytes = pages, max_page_bytes
    state.episode = EpisodeState(current_url=task.start_url).as_dict()


def episode_of(state: BS4State, executor: Executor, budgets: Budgets) -> Episode:
    """Rebuild the rollout's episode from the synced state."""
    if not state.archetype:
        raise RuntimeError("rollout state has no task; Task.setup did not run")
    task = task_of(state.archetype, state.seed, state.split, state.pages, state.max_page_bytes)
    episode_state = EpisodeState.from_dict(state.episode) if state.episode else None
    return Episode(task, executor, budgets, episode_state)


async def call_on_state(
    state: BS4State,
    name: str,
    raw_arguments: str | dict[str, object] | None,
    executor: Executor,
    budgets: Budgets,
) -> str:
    """Run one tool call with the engine's semantics and write the episode state back."""
    if state.archetype:  # else episode_of says that setup did not run
        await task_off_loop(
            state.archetype, state.seed, state.split, state.pages, state.max_page_bytes
        )
    episode = episode_of(state, executor, budgets)
    reply = await episode.call_tool(name, raw_arguments)
    state.episode = episode.state.as_dict()
    return reply


class LazyExecutor(Executor):
    """Starts the real executor on first use, so a host that never runs code pays nothing."""

    def __init__(self, kind: str, pool_size: int | None) -> None:
        self._kind, self._pool_size = kind, pool_size
        self._inner: Executor | None = None
        self._lock = asyncio.Lock()

    async def run(self, request: ExecRequest) -> ExecResult:
        async with self._lock:
            if self._inner is None:
                self._inner = make_executor(self._kind, self._pool_size)
        return await self._inner.run(request)

    async def aclose(self) -> None:
        if self._inner is not None:
            await self._inner.aclose()
            self._inner = None


class NoExecutor(Executor):
    """For grading only: ``Episode.finish`` never runs code."""

    async def run(self, request: ExecRequest) -> ExecResult:
        raise RuntimeError("grading does not run code")


NO_EXECUTOR = NoExecutor()
