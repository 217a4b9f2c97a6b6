"""The chat rollout loop over the episode engine (used by ``bs4-env eval`` and checks)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bs4_env.episode.engine import Budgets, Episode
from bs4_env.episode.history import history_arguments
from bs4_env.episode.prompt import initial_messages
from bs4_env.episode.tool_schema import openai_tools
from bs4_env.evaluation.turns import Message, Policy, ToolCall
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
    # What the policy was sent (tool-call arguments as the engine ran them) and, per turn
    # whose sampled ids the policy returned, (messages of ``history`` sent, the ids).
    history: list[Message] = field(default_factory=list)
    sampled: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)


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
    # The transcript keeps the model's raw tool-call arguments; the history sent back to the
    # policy carries what the engine ran (``bs4_env.episode.history``).
    transcript = initial_messages(task)
    history = list(transcript)
    tools = openai_tools()
    final_text, prompt_tokens, completion_tokens = "", 0, 0
    sampled: list[tuple[int, tuple[int, ...]]] = []
    for _ in range(max_turns):
        turn = await policy.next_turn(history, tools)
        if turn.token_ids:
            sampled.append((len(history), turn.token_ids))
        prompt_tokens += turn.prompt_tokens
        completion_tokens += turn.completion_tokens
        transcript.append(turn.as_message())
        if not turn.tool_calls:
            history.append(transcript[-1])
            final_text = turn.content
            break
        sent: list[ToolCall] = []
        replies: list[Message] = []
        for call in turn.tool_calls:
            reply = await episode.call_tool(call.name, call.arguments)
            arguments = history_arguments(call.arguments, episode.last_arguments)
            sent.append(ToolCall(call.id, call.name, arguments))
            replies.append(tool_message(call, reply))
        history.append(replace(turn, tool_calls=tuple(sent)).as_message())
        transcript.extend(replies)
        history.extend(replies)
    score = episode.finish(final_text)
    return Rollout(
        task, transcript, final_text, score, prompt_tokens, completion_tokens, history, sampled
    )


def tool_message(call: ToolCall, reply: str) -> Message:
    """A tool reply as the verifiers null harness writes it (``name`` included), so every path
    sends the model the same request (tests/e2e/test_request_format.py)."""
    return {"role": "tool", "tool_call_id": call.id, "content": reply, "name": call.name}
