"""``BeautifulSoupClassicEnv``: the episode engine as a classic verifiers ``StatefulToolEnv``.

Importing this module needs the classic verifiers API (0.3.x, or the snapshot prime-rl v0.8.0
pins); anywhere else it raises ImportError saying what to install. It never imports
``verifiers.v1``.

One rollout, in the order verifiers drives it:

* ``setup_state`` rebuilds the task from the row's identity (off the event loop), checks that
  the prompt the rollout got is the engine's, and starts an ``Episode`` on this process's
  sandbox executor.
* ``env_response`` answers each tool call. Arguments that are exactly ``{"code": str}`` /
  ``{"href": str}`` take the ordinary ``StatefulToolEnv`` path (``update_tool_args`` injects the
  episode, the registered tool runs); anything else (bad JSON, wrong key, double-encoded,
  unknown tool) goes straight to ``Episode.call_tool`` with the raw text, which repairs it
  byte for byte or tells the model what to resend. Both paths end in ``Episode.call_tool``.
  Each call's arguments as the engine ran them are kept by call id, and ``get_model_response``
  sends those back in the history (``bs4_env.episode.history``: strict endpoints refuse
  non-JSON arguments there) while the trajectory and the saved completion keep the raw text.
* ``grade`` (a cleanup handler, after verifiers has rendered the completion) grades the final
  message once with ``Episode.finish``; the reward and every score component are metrics, and
  ``info["bs4"]`` keeps the score, its explanation and the episode counters.
"""

# No ``from __future__ import annotations``: verifiers builds the tool schemas from the tool
# functions' signatures (then replaced by the engine's own schemas, see ``_use_engine_schemas``).
import asyncio
import weakref
from collections.abc import Callable
from typing import Any

from bs4_env.integrations.verifiers_classic.compat import require_classic_api

require_classic_api()

import verifiers as vf  # noqa: E402
from verifiers.types import Tool, ToolMessage  # noqa: E402

from bs4_env.episode.engine import Episode  # noqa: E402
from bs4_env.episode.executors import make_executor  # noqa: E402
from bs4_env.episode.history import history_arguments  # noqa: E402
from bs4_env.episode.tool_schema import (  # noqa: E402
    NAVIGATE_DESCRIPTION,
    RUN_PYTHON_DESCRIPTION,
    openai_tools,
)
from bs4_env.integrations.verifiers_classic.dataset import (  # noqa: E402
    check_row_prompt,
    classic_dataset,
    task_of,
)
from bs4_env.integrations.verifiers_classic.options import ClassicOptions  # noqa: E402
from bs4_env.integrations.verifiers_classic.transcript import (  # noqa: E402
    INFO_KEY,
    METRICS,
    final_text,
    grade_record,
    metric_value,
    plain_messages,
    well_formed_arguments,
    with_history_arguments,
)
from bs4_env.sandbox.base import Executor  # noqa: E402

EPISODE_KEY = "bs4_episode"
SENT_ARGUMENTS_KEY = "bs4_sent_arguments"


async def run_python(code: str, episode: Episode) -> str:
    return await episode.call_tool("run_python", {"code": code})


async def navigate(href: str, episode: Episode) -> str:
    return await episode.call_tool("navigate", {"href": href})


run_python.__doc__ = RUN_PYTHON_DESCRIPTION
navigate.__doc__ = NAVIGATE_DESCRIPTION


class ClassicRubric(vf.Rubric):  # type: ignore[misc]
    """The engine's reward (weight 1) and one zero-weight metric per score component."""

    def __init__(self) -> None:
        super().__init__()
        self.add_reward_func(self.reward, weight=1.0)
        for name in METRICS:
            self.add_metric(_metric(name))

    async def reward(self, state: Any) -> float:
        """The engine's reward for this transcript (see bs4_env.grading.rubric)."""
        return float(graded(state)["reward"])


def graded(state: Any) -> dict[str, Any]:
    """The grading ``BeautifulSoupClassicEnv.grade`` stored for this rollout."""
    info = state.get("info")
    if not isinstance(info, dict) or INFO_KEY not in info:
        raise RuntimeError("the rollout was not graded (BeautifulSoupClassicEnv.grade did not run)")
    result: dict[str, Any] = info[INFO_KEY]
    return result


def _metric(name: str) -> Callable[..., Any]:
    async def metric(state: Any) -> float:
        return metric_value(graded(state), name)

    metric.__name__ = name
    return metric


class BeautifulSoupClassicEnv(vf.StatefulToolEnv):  # type: ignore[misc]
    """HTML extraction with BeautifulSoup over seeded pages, graded by the episode engine."""

    def __init__(self, options: ClassicOptions) -> None:
        self.options = options
        self._executors: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Executor] = (
            weakref.WeakKeyDictionary()
        )
        rows, pages, cap = options.dataset, options.pages, options.max_page_bytes
        super().__init__(
            tools=[],
            max_turns=options.max_turns,
            # Builders, so a split's table is made only if verifiers asks for it.
            dataset=lambda: classic_dataset(rows, pages, cap),
            eval_dataset=lambda: classic_dataset(rows, pages, cap),
            rubric=ClassicRubric(),
        )
        functions = {"run_python": run_python, "navigate": navigate}
        for tool in openai_tools():  # the engine's order, so every path lists tools alike
            self.add_tool(functions[tool["function"]["name"]], args_to_skip=["episode"])
        self._use_engine_schemas()

    def _use_engine_schemas(self) -> None:
        """Advertise exactly the tool schemas every other path uses (``openai_tools``)."""
        schemas = [tool["function"] for tool in openai_tools()]
        if [schema["name"] for schema in schemas] != list(self.tool_map):
            raise RuntimeError(f"tool mismatch: {list(self.tool_map)} vs the engine's schemas")
        self.tool_defs = [
            Tool(name=s["name"], description=s["description"], parameters=s["parameters"])
            for s in schemas
        ]

    def _get_eval_inputs(
        self,
        num_examples: int = -1,
        rollouts_per_example: int = 1,
        shuffle: bool = False,
        shuffle_seed: int | None = None,
    ) -> list[dict[str, Any]]:
        """verifiers' own selection (shuffle, first ``num_examples``, ``rollouts_per_example``
        copies of the whole list) with rows read by index: its ``Dataset.to_list()`` would skip
        the transform that writes the prompts."""
        dataset = self.get_eval_dataset()
        if shuffle:
            dataset = dataset.shuffle(seed=0 if shuffle_seed is None else shuffle_seed)
        if num_examples > 0:
            dataset = dataset.select(range(min(num_examples, len(dataset))))
        rows = [dict(dataset[index]) for index in range(len(dataset))]
        return [dict(row) for _ in range(max(1, rollouts_per_example)) for row in rows]

    def executor(self) -> Executor:
        """This event loop's sandbox executor (its workers start on the first call)."""
        loop = asyncio.get_running_loop()
        if loop not in self._executors:
            self._executors[loop] = make_executor(self.options.executor, self.options.pool_size)
        return self._executors[loop]

    async def setup_state(self, state: Any) -> Any:
        task = await asyncio.to_thread(task_of, state.get("info"))
        check_row_prompt(task, plain_messages(state.get("prompt") or []))
        state[EPISODE_KEY] = Episode(task, self.executor(), self.options.budgets())
        state[SENT_ARGUMENTS_KEY] = {}
        return await super().setup_state(state)

    def update_tool_args(
        self, tool_name: str, tool_args: dict[str, Any], messages: Any, state: Any, **kwargs: Any
    ) -> dict[str, Any]:
        return {**tool_args, "episode": state[EPISODE_KEY]}

    async def env_response(self, messages: Any, state: Any, **kwargs: Any) -> list[Any]:
        episode: Episode = state[EPISODE_KEY]
        replies = []
        for call in messages[-1].tool_calls or []:
            arguments = well_formed_arguments(call.name, call.arguments)
            if arguments is not None and call.name in self.tool_map:
                tool_args = self.update_tool_args(call.name, arguments, messages, state)
                reply = await self.tool_map[call.name](**tool_args)
            else:
                reply = await episode.call_tool(call.name, call.arguments)
            sent = history_arguments(call.arguments, episode.last_arguments)
            if sent != call.arguments:
                state[SENT_ARGUMENTS_KEY][call.id] = sent
            replies.append(ToolMessage(role="tool", content=reply, tool_call_id=call.id))
        return replies

    async def get_model_response(self, state: Any, prompt: Any, *args: Any, **kwargs: Any) -> Any:
        """The model request carries the arguments the engine ran; ``prompt`` itself (recorded
        in the trajectory) keeps the model's raw text."""
        sent = with_history_arguments(prompt, state.get(SENT_ARGUMENTS_KEY) or {})
        return await super().get_model_response(state, sent, *args, **kwargs)

    @vf.cleanup  # type: ignore[untyped-decorator]
    async def grade(self, state: Any) -> None:
        """Grade the final message once (after verifiers rendered the completion)."""
        episode: Episode | None = state.pop(EPISODE_KEY, None)
        if episode is None:  # setup_state failed; verifiers records that error
            return
        score = episode.finish(final_text(state.get("completion")))
        info = state.get("info")
        if not isinstance(info, dict):
            raise RuntimeError(f"rollout info is {type(info).__name__}, not the row's dict")
        info[INFO_KEY] = grade_record(score, episode)
        info["explanation"] = score.explanation

    @vf.teardown  # type: ignore[untyped-decorator]
    async def close_sandbox(self) -> None:
        """Stop this event loop's sandbox workers (others die with the process)."""
        executor = self._executors.pop(asyncio.get_running_loop(), None)
        if executor is not None:
            await executor.aclose()


def build_environment(options: ClassicOptions) -> BeautifulSoupClassicEnv:
    """The classic environment for checked options."""
    return BeautifulSoupClassicEnv(options)
