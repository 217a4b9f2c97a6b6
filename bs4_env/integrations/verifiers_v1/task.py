"""The verifiers ``Task``: task data columns, host-side hooks, reward and metrics.

* ``setup`` (host, before the tool server sees the rollout) generates the task off the event
  loop and writes its identity and a fresh ``EpisodeState`` into ``trace.state``.
* ``answer_unrunnable_calls`` is a request hook. When the harness opens a train-stream row's
  conversation, it writes the task's request over the row's deferred prompt
  (``deferred_prompt``). Later, a tool call the MCP tool cannot take as sent
  (bad JSON, wrong key, double-encoded, unknown tool) is answered on the host through the same
  ``Episode.call_tool`` (which repairs or refuses it) against ``trace.state``, with a gating
  harness (verifiers >= 0.4) before it runs and with the gate-less one prime-rl pins when the
  harness's own error reply passes on the next request (``host_calls`` says how and why).
* The reward is ``Episode.finish(final_text).reward``; every score component is a metric.
* ``validate`` (``vf-validate``'s gold check) plays the archetype's reference program through
  the engine in the configured sandbox, as ``bs4-env check`` does: valid when it earns the
  best reward (1.0, or 0.5 for a justified abstention). A labelled page's gold is its label:
  the page parses in the sandbox and the label, given as the answer, is accepted.
"""

from __future__ import annotations

import logging
from typing import Any

import verifiers.v1 as vf

from bs4_env.checks.solvability import best_reward, play_reference
from bs4_env.episode.engine import Budgets
from bs4_env.episode.prompt import user_prompt
from bs4_env.integrations.verifiers_v1.config import BS4RolloutToolsetConfig, BS4TaskConfig
from bs4_env.integrations.verifiers_v1.deferred_prompt import (
    deferred_prompt,
    opens_deferred,
    write_request,
)
from bs4_env.integrations.verifiers_v1.host_calls import (
    answer_gate_probe,
    answer_harness_errors,
    host_executor,
    runs_on_toolset,
    settle_unanswered,
)
from bs4_env.integrations.verifiers_v1.rollout_toolset import BS4RolloutToolset
from bs4_env.integrations.verifiers_v1.state import (
    NO_EXECUTOR,
    BS4State,
    episode_of,
    start_state,
    task_of,
    task_off_loop,
)

__all__ = ["COMPONENTS", "INFO_KEY", "BS4Task", "BS4TaskData", "runs_on_toolset"]

logger = logging.getLogger(__name__)

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
    pages: str | None = None
    """Labelled pages only: the set (``real`` or a rows file), its page cap and the row id
    (``seed`` is the row's index, ``archetype`` its family)."""
    max_page_bytes: int | None = None
    row_id: str | None = None


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
        pages, cap = data.pages or "", data.max_page_bytes or 0
        # Built off the event loop: a draw from the train stream never generated the page.
        task = await task_off_loop(data.archetype, data.seed, data.split, pages, cap)
        start_state(trace.state, task, pages, cap)

    async def validate(self, runtime: vf.Runtime) -> bool:
        """Gold check: the reference program, played through the engine, earns the best reward.

        It runs in this host's sandbox (the configured ``executor``), never in ``runtime``:
        the page and the truth stay on the host, as in every rollout.
        """
        data: BS4TaskData = self.data
        config: BS4TaskConfig = self.config
        task = task_of(
            data.archetype, data.seed, data.split, data.pages or "", data.max_page_bytes or 0
        )
        executor = host_executor(config.engine.executor)
        score = await play_reference(task, executor, budgets=self._budgets())
        if score.reward != best_reward(task):
            logger.warning("%s: reference scored %s: %s", self.key, score.reward, score.explanation)
            return False
        return True

    @vf.intercept
    async def answer_unrunnable_calls(
        self, request: vf.Request, trace: vf.Trace
    ) -> vf.Request | None:
        state: BS4State = trace.state
        if opens_deferred(request):
            task = await task_off_loop(
                state.archetype, state.seed, state.split, state.pages, state.max_page_bytes
            )
            placeholder = deferred_prompt(state.split, state.archetype, state.seed)
            return write_request(request, placeholder, user_prompt(task))
        config: BS4TaskConfig = self.config
        executor = host_executor(config.engine.executor)
        last = request.messages[-1] if request.messages else None
        if isinstance(last, vf.ToolMessage) and not last.content:  # a gate's probe
            return await answer_gate_probe(request, state, executor, self._budgets())
        return await answer_harness_errors(
            request, state, executor, self._budgets(), trace.assistant_messages
        )

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
            if data.pages:
                info.update(pages=data.pages, row_id=data.row_id)
        graded: dict[str, Any] = info[INFO_KEY]
        return graded

    async def finalize(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        """Settle calls no request carried to the hook (gate-less harness), then grade."""
        state: BS4State = trace.state
        if state.archetype and INFO_KEY not in trace.info:
            config: BS4TaskConfig = self.config
            executor = host_executor(config.engine.executor)
            await settle_unanswered(trace, state, executor, self._budgets())
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
