"""The verifiers ``Task``: task data columns, host-side hooks, reward and metrics.

* ``setup`` (host, before the tool server sees the rollout) writes the task identity and a
  fresh ``EpisodeState`` into ``trace.state``.
* ``answer_unrunnable_calls`` is a request hook. With a gating harness (the null harness)
  verifiers runs it on every proposed tool call before the harness executes it; a call whose
  arguments are not exactly ``{"code": str}`` / ``{"href": str}`` (bad JSON, wrong key,
  double-encoded, ...) or names an unknown tool is answered here, on the host, through the
  same ``Episode.call_tool`` (which repairs or refuses it) against ``trace.state``. The
  harness then records that reply instead of failing the call. Such calls run in the same
  configured sandbox as the tool server (one lazily started worker on the host), so sending
  malformed arguments never buys weaker isolation.
* The reward is ``Episode.finish(final_text).reward``; every score component is a metric.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from typing import Any

import verifiers.v1 as vf

from bs4_env.episode.engine import TOOL_SPECS, Budgets
from bs4_env.integrations.verifiers_v1.config import BS4RolloutToolsetConfig, BS4TaskConfig
from bs4_env.integrations.verifiers_v1.rollout_toolset import BS4RolloutToolset
from bs4_env.integrations.verifiers_v1.state import (
    NO_EXECUTOR,
    BS4State,
    LazyExecutor,
    cached_task,
    call_on_state,
    episode_of,
    start_state,
)
from bs4_env.sandbox.base import Executor

_HOST_EXECUTORS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Executor] = (
    weakref.WeakKeyDictionary()
)
INFO_KEY = "bs4"
COMPONENTS = (
    "correct",
    "abstained",
    "reason_ok",
    "evidence_ok",
    "safety_violation",
    "used_bs4",
    "efficiency",
    "tool_calls",
    "sandbox_errors",
    "timeouts",
    "format_ok",
    "run_s",
    "queue_wait_s",
)


class BS4TaskData(vf.TaskData):
    """Prompt plus the task identity and labels; never the truth or the page."""

    archetype: str
    seed: int
    split: str
    difficulty: str
    category: str


HOST_POOL_SIZE = 1  # repaired calls are rare; one warm worker serves them


def host_executor(kind: str) -> Executor:
    """This event loop's executor for calls answered on the host (started on first use).

    Its workers die with the host process (PDEATHSIG), so none outlive an eval run.
    """
    loop = asyncio.get_running_loop()
    if loop not in _HOST_EXECUTORS:
        _HOST_EXECUTORS[loop] = LazyExecutor(kind, HOST_POOL_SIZE)
    return _HOST_EXECUTORS[loop]


def runs_on_toolset(name: str, arguments: str | None) -> bool:
    """True when the tool server can take the call as is: a known tool and arguments that
    are exactly ``{<param>: <string>}``. Anything else goes through the engine's repair."""
    spec = TOOL_SPECS.get(name)
    if spec is None:
        return False
    try:
        parsed = json.loads(arguments or "")
    except json.JSONDecodeError:
        return False
    return (
        isinstance(parsed, dict)
        and list(parsed) == [spec.param]
        and isinstance(parsed[spec.param], str)
    )


def final_text_of(trace: vf.Trace) -> str:
    """The last model reply if it has no tool calls (the answer), else '' (no answer)."""
    replies = trace.assistant_messages
    if not replies or replies[-1].tool_calls:
        return ""
    content = replies[-1].content
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(str(getattr(part, "text", "") or "") for part in content)


class BS4Task(vf.Task[BS4TaskData, BS4State, BS4TaskConfig]):
    """One beautiful-soup-env episode."""

    @property
    def key(self) -> str:
        data: BS4TaskData = self.data
        return f"{data.split}/{data.archetype}/{data.seed}"

    @classmethod
    def toolsets(cls, config: BS4TaskConfig) -> list[vf.Toolset]:
        if config.engine.tool_scope != "rollout":
            return []
        return [BS4RolloutToolset(BS4RolloutToolsetConfig(engine=config.engine))]

    def _budgets(self) -> Budgets:
        config: BS4TaskConfig = self.config
        return config.engine.budgets()

    async def setup(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        data: BS4TaskData = self.data
        start_state(trace.state, cached_task(data.archetype, data.seed, data.split))

    @vf.intercept
    async def answer_unrunnable_calls(
        self, request: vf.Request, trace: vf.Trace
    ) -> vf.Request | None:
        probe = request.messages[-1]
        if not isinstance(probe, vf.ToolMessage) or probe.content:
            return None  # only the harness gate's empty probe for a proposed call
        call = None
        for message in reversed(request.messages[:-1]):
            if isinstance(message, vf.AssistantMessage) and message.tool_calls:
                call = next((c for c in message.tool_calls if c.id == probe.tool_call_id), None)
                break
        if call is None or runs_on_toolset(call.name, call.arguments):
            return None
        state: BS4State = trace.state
        config: BS4TaskConfig = self.config
        executor = host_executor(config.engine.executor)
        reply = await call_on_state(state, call.name, call.arguments, executor, self._budgets())
        state.host_calls += 1
        messages = [*request.messages[:-1], probe.model_copy(update={"content": reply})]
        result: vf.Request = request.model_copy(update={"messages": messages})
        return result

    def graded(self, trace: vf.Trace) -> dict[str, Any]:
        """Grade the rollout once (deterministic) and keep the result in ``trace.info``."""
        info: dict[str, Any] = trace.info
        if INFO_KEY not in info:
            state: BS4State = trace.state
            episode = episode_of(state, NO_EXECUTOR, self._budgets())
            score = episode.finish(final_text_of(trace))
            data: BS4TaskData = self.data
            info[INFO_KEY] = {
                "reward": score.reward,
                "components": dict(score.components),
                "explanation": score.explanation,
                "episode": episode.state.as_dict(),
                "host_calls": state.host_calls,
            }
            info.update(
                archetype=data.archetype,
                seed=data.seed,
                split=data.split,
                difficulty=data.difficulty,
                category=data.category,
                explanation=score.explanation,
            )
        graded: dict[str, Any] = info[INFO_KEY]
        return graded

    async def finalize(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        self.graded(trace)

    @vf.reward(weight=1.0)
    async def reward(self, trace: vf.Trace) -> float:
        """The engine's reward for this transcript (see bs4_env.grading.rubric)."""
        return float(self.graded(trace)["reward"])

    @vf.metric
    async def components(self, trace: vf.Trace) -> dict[str, float]:
        """One metric per score component, plus unrepairable tool arguments."""
        graded = self.graded(trace)
        metrics = {name: float(graded["components"].get(name, 0.0)) for name in COMPONENTS}
        metrics["bad_arguments"] = float(graded["episode"]["bad_arguments"])
        return metrics
