"""The chat rollout loop over the episode engine (used by ``bs4-env eval`` and checks)."""

from __future__ import annotations

from dataclasses import dataclass

from bs4_env.episode.engine import Budgets, Episode
from bs4_env.episode.prompt import initial_messages
from bs4_env.episode.tool_schema import openai_tools
from bs4_env.evaluation.turns import Message, Policy
from bs4_env.grading.rubric import Score
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.model import Task

DEFAULT_MAX_TURNS = 16


@dataclass
class Rollout:
    task: Task
    messages: list[Message]
    final_text: str
    score: Score
    prompt_tokens: int = 0
    completion_tokens: int = 0


async def run_rollout(
    task: Task,
    policy: Policy,
    executor: Executor,
    budgets: Budgets | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> Rollout:
    """Play one episode: the policy talks, tools run through the engine, the engine grades.

    The rollout ends at the first reply without tool calls (its text is the final answer),
    or after ``max_turns`` replies (then the final answer is empty and scores 0).
    """
    episode = Episode(task, executor, budgets)
    messages = initial_messages(task)
    tools = openai_tools()
    final_text, prompt_tokens, completion_tokens = "", 0, 0
    for _ in range(max_turns):
        turn = await policy.next_turn(messages, tools)
        prompt_tokens += turn.prompt_tokens
        completion_tokens += turn.completion_tokens
        messages.append(turn.as_message())
        if not turn.tool_calls:
            final_text = turn.content
            break
        for call in turn.tool_calls:
            reply = await episode.call_tool(call.name, call.arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": reply})
    score = episode.finish(final_text)
    return Rollout(task, messages, final_text, score, prompt_tokens, completion_tokens)
