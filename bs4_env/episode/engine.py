"""One episode: the current page, tool semantics, budgets and grading.

Every path (tests, ``bs4-env check``/``eval``, verifiers integrations) drives this class,
so one transcript always gets one reward.
"""

from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urldefrag, urljoin

from bs4_env.episode.page_timeout import page_timeout_s
from bs4_env.episode.tool_text import format_exec_result
from bs4_env.grading.rubric import Score, ToolUsage, grade
from bs4_env.sandbox.base import (
    DEFAULT_MAX_OUTPUT_BYTES,
    DEFAULT_TIMEOUT_S,
    ExecRequest,
    ExecResult,
    Executor,
)
from bs4_env.tasks.model import Task
from bs4_env.tools.arg_repair import NAVIGATE, RUN_PYTHON, ToolArgSpec, repair_tool_arguments

TOOL_SPECS: dict[str, ToolArgSpec] = {RUN_PYTHON.name: RUN_PYTHON, NAVIGATE.name: NAVIGATE}
# The tool replies that refuse a call because a budget is spent; readers of transcripts (the
# lab's behaviour measures) recognise them by these texts.
TOOL_BUDGET_SPENT = (
    "error: tool-call budget of {limit} calls is used up; reply with your final JSON answer now."
)
OUTPUT_BUDGET_SPENT = (
    "error: output budget for this episode is used up; reply with your final answer."
)


@dataclass(frozen=True)
class Budgets:
    """Per-episode limits; every field is a setting with a sane default."""

    max_tool_calls: int = 12
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES
    max_total_output_chars: int = 120_000

    def __post_init__(self) -> None:
        if self.max_tool_calls < 1 or self.timeout_s <= 0 or self.max_output_bytes < 256:
            raise ValueError(f"invalid budgets: {self}")


@dataclass
class EpisodeState:
    """Everything an episode accumulates; plain data, so frameworks can carry it between
    processes (``as_dict``/``from_dict``) and rebuild the same episode anywhere."""

    current_url: str = ""
    tool_calls: int = 0
    soup_runs: int = 0
    sandbox_errors: int = 0
    timeouts: int = 0
    output_chars: int = 0
    bad_arguments: int = 0
    finished: bool = False
    run_s: float = 0.0
    queue_wait_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EpisodeState:
        known = {name for name in cls.__dataclass_fields__}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown episode state fields {unknown}")
        return cls(**data)


class Episode:
    """One rollout over one task: tool semantics, budgets and grading over an ``EpisodeState``."""

    def __init__(
        self,
        task: Task,
        executor: Executor,
        budgets: Budgets | None = None,
        state: EpisodeState | None = None,
    ) -> None:
        self.task = task
        self.budgets = budgets or Budgets()
        self._executor = executor
        self.state = state or EpisodeState(current_url=task.start_url)
        if self.state.current_url not in task.pages:
            raise ValueError(f"episode state points at unknown page {self.state.current_url!r}")
        self.last_result: ExecResult | None = None
        # What the last call_tool ran with (None: nothing ran), so a chat history can carry
        # the arguments the engine executed rather than the model's unparseable ones.
        self.last_arguments: dict[str, str] | None = None
        self.score: Score | None = None
        # One call in flight per rollout: a rollout cannot hold more than one sandbox at once.
        self._running = asyncio.Lock()
        self._page_bytes: dict[str, int] = {}  # per URL: encoding a 1 MB page costs a millisecond

    @property
    def current_url(self) -> str:
        return self.state.current_url

    @property
    def timeout_s(self) -> float:
        """Seconds per ``run_python`` call on the current page: the task's own (a labelled page
        may set it); else, on a labelled page, the budget's scaled by the page's size
        (``bs4_env.episode.page_timeout``); else the budget's."""
        if self.task.timeout_s is not None:
            return self.task.timeout_s
        if self.task.row_id is None:
            return self.budgets.timeout_s
        url = self.state.current_url
        if url not in self._page_bytes:
            self._page_bytes[url] = len(self.current_html.encode("utf-8", "surrogatepass"))
        return page_timeout_s(self.budgets.timeout_s, self._page_bytes[url])

    @property
    def current_html(self) -> str:
        return self.task.pages[self.state.current_url]

    def usage(self) -> ToolUsage:
        st = self.state
        return ToolUsage(
            st.tool_calls, st.soup_runs, st.sandbox_errors, st.timeouts, st.run_s, st.queue_wait_s
        )

    def _budget_message(self) -> str | None:
        self.state.tool_calls += 1
        if self.state.finished:
            return "error: the episode is over; no more tool calls are accepted."
        if self.state.tool_calls > self.budgets.max_tool_calls:
            return TOOL_BUDGET_SPENT.format(limit=self.budgets.max_tool_calls)
        if self.state.output_chars >= self.budgets.max_total_output_chars:
            return OUTPUT_BUDGET_SPENT
        return None

    async def run_python(self, code: str) -> str:
        """Run ``code`` on the current page; returns the tool reply shown to the model."""
        async with self._running:
            if (refusal := self._budget_message()) is not None:
                return refusal
            timeout_s = self.timeout_s
            request = ExecRequest(
                code=code,
                html=self.current_html,
                query=self.task.query,
                timeout_s=timeout_s,
                max_output_bytes=self.budgets.max_output_bytes,
            )
            result = await self._executor.run(request)
        self.last_result = result
        self.state.run_s += result.duration_s
        self.state.queue_wait_s += result.queue_wait_s
        self.state.soup_runs += int(result.parsed_page)
        self.state.sandbox_errors += int(result.infra_error is not None)
        self.state.timeouts += int(result.timed_out)
        reply = format_exec_result(result, timeout_s)
        self.state.output_chars += len(reply)
        return reply

    async def navigate(self, href: str) -> str:
        """Switch the current page now, so the very next ``run_python`` sees it."""
        if (refusal := self._budget_message()) is not None:
            return refusal
        if not self.task.is_multipage:
            return "error: this task has a single page; there is nothing to navigate to."
        target, _fragment = urldefrag(urljoin(self.current_url, href.strip()))
        if target not in self.task.pages:
            return f"error: no page at {target!r} is reachable from this site."
        self.state.current_url = target
        return f"Navigated to {target}. The next run_python call runs on this page (HTML)."

    async def call_tool(self, name: str, raw_arguments: str | dict[str, object] | None) -> str:
        """Dispatch one model tool call: repair its arguments, run it, return the reply text.

        Arguments that cannot be repaired unambiguously are not run; the model gets a message
        saying what to resend, and the call still counts against the budget.
        """
        self.last_arguments = None
        spec = TOOL_SPECS.get(name)
        if spec is None:
            self.state.tool_calls += 1
            return f"error: unknown tool {name!r}; available tools: {', '.join(TOOL_SPECS)}."
        repaired = repair_tool_arguments(spec, raw_arguments)
        if repaired.arguments is None:
            self.state.tool_calls += 1
            self.state.bad_arguments += 1
            return f"error: {repaired.error}"
        self.last_arguments = repaired.arguments
        value = repaired.arguments[spec.param]
        if spec is RUN_PYTHON:
            return await self.run_python(value)
        return await self.navigate(value)

    def finish(self, final_text: str) -> Score:
        """Grade the final message once; later calls return the same score."""
        if self.score is None:
            self.score = grade(self.task, final_text, self.usage())
            self.state.finished = True
        return self.score
