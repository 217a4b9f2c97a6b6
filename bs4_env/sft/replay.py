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


@dataclass
class Replayed:
    messages: list[Message]
    score: Score
    tool_calls: int


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
    one call more, which the engine refuses with its budget message."""
    calls_allowed = budgets.max_tool_calls
    if plan.budget_calls is not None:
        budgets = dataclasses.replace(budgets, max_tool_calls=plan.budget_calls)
        calls_allowed = plan.budget_calls + 1
    episode = Episode(task, executor, budgets)
    messages: list[Message] = list(initial_messages(task))
    pending = list(plan.steps)
    stdout, calls = "", 0
    while pending and calls < calls_allowed:
        step = pending.pop(0)
        call_id = f"call_{calls}"
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
    return Replayed(messages, episode.finish(final), calls)
