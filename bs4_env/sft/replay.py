"""Play a plan through the real episode engine and sandbox; the grade decides if it is kept.

Every tool reply in an episode is the engine's reply for that call. One part is made
canonical: the timing line (``time: ran X s, waited Y s ...``) gets fixed numbers, because wall
times differ from run to run and the same arguments must give the same bytes.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from bs4_env.episode.engine import Budgets, Episode
from bs4_env.episode.prompt import initial_messages
from bs4_env.episode.tool_text import TIMING_PREFIX, stdout_of, timing_line
from bs4_env.evaluation.scripted import navigation_target
from bs4_env.grading.rubric import REWARD_ABSTAIN, REWARD_CORRECT, Score
from bs4_env.sandbox.base import Executor
from bs4_env.sft.plan import Plan, Step, final_reply
from bs4_env.tasks.model import Task

Message = dict[str, Any]
# The settings of the shipped RL configs' taskset: episodes see the replies training sees.
SFT_BUDGETS = Budgets(max_tool_calls=8, timeout_s=10.0, max_output_bytes=3000)
CANONICAL_RUN_S = 0.05
# A sandbox failure or a time-out depends on the machine's load, not on the plan (no plan
# times out on purpose), so such a replay is played again rather than kept or dropped.
REPLAY_TRIES = 3


class SandboxUnavailable(RuntimeError):
    """The sandbox failed on every try of a replay: the data would depend on the machine."""


@dataclass
class Replayed:
    messages: list[Message]
    score: Score
    tool_calls: int
    untrained_turns: list[int]


def best_reward(task: Task) -> float:
    return REWARD_CORRECT if task.solvable else REWARD_ABSTAIN


def _canonical_timing(reply: str, episode: Episode) -> str:
    head, sep, rest = reply.partition("\n")
    if episode.last_result is None or not rest.startswith(TIMING_PREFIX):
        return reply
    fixed = dataclasses.replace(episode.last_result, duration_s=CANONICAL_RUN_S, queue_wait_s=0.0)
    return head + sep + timing_line(fixed) + "\n" + rest.partition("\n")[2]


async def replay(
    task: Task, plan: Plan, executor: Executor, budgets: Budgets = SFT_BUDGETS
) -> Replayed:
    """The plan's whole chat (system, user, assistant tool calls, tool replies, final reply)
    and the engine's grade of it. A budget plan runs under its own tool-call budget and makes
    one call more, which the engine refuses with its budget message.

    A replay in which a call met a sandbox error or a time-out is played again, up to
    ``REPLAY_TRIES`` times, so that no "sandbox error" reply enters training data and a loaded
    machine does not change which plan is kept. If the sandbox failed on every try,
    ``SandboxUnavailable`` is raised; a plan that times out every time is returned as played
    (its grade decides, as for any failing plan)."""
    for _ in range(REPLAY_TRIES):
        done, episode = await _replay_once(task, plan, executor, budgets)
        if not episode.state.sandbox_errors and not episode.state.timeouts:
            return done
    if episode.state.sandbox_errors:
        raise SandboxUnavailable(
            f"the sandbox failed on {task.archetype_id} seed {task.seed} in {REPLAY_TRIES}"
            f" replays of its {plan.kind} plan ({episode.state.sandbox_errors} failed calls"
            " in the last)"
        )
    return done


async def _replay_once(
    task: Task, plan: Plan, executor: Executor, budgets: Budgets
) -> tuple[Replayed, Episode]:
    calls_allowed = budgets.max_tool_calls
    if plan.budget_calls is not None:
        budgets = dataclasses.replace(budgets, max_tool_calls=plan.budget_calls)
        calls_allowed = plan.budget_calls + 1
    episode = Episode(task, executor, budgets)
    messages: list[Message] = list(initial_messages(task))
    pending = list(plan.steps)
    stdout, calls, untrained = "", 0, []
    while pending and calls < calls_allowed:
        step = pending.pop(0)
        call_id = f"call_{calls}"
        if not step.trained:
            untrained.append(len(messages))
        key = "code" if step.tool == "run_python" else "href"
        arguments = json.dumps({key: step.argument}, ensure_ascii=False)
        messages.append(
            {
                "role": "assistant",
                "content": step.note,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": step.tool, "arguments": arguments},
                    }
                ],
            }
        )
        reply = await episode.call_tool(step.tool, arguments)
        if step.tool == "run_python":
            reply = _canonical_timing(reply, episode)
            stdout = stdout_of(reply)
        messages.append(
            {"role": "tool", "tool_call_id": call_id, "content": reply, "name": step.tool}
        )
        calls += 1
        href = navigation_target(stdout) if step.tool == "run_python" else None
        if plan.answer_from == "final_json" and href is not None and not pending:
            # Follow the link, then run the same program on the new page.
            pending = [Step("navigate", href), step]
    try:
        final = final_reply(stdout, plan)
    except ValueError:
        final = stdout.strip()
    messages.append({"role": "assistant", "content": final})
    return Replayed(messages, episode.finish(final), calls, untrained), episode
