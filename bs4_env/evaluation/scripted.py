"""Scripted policies: deterministic players used by the default eval, checks and e2e tests.

Each decides its next turn from the conversation alone, so the same policy can also be
served behind an OpenAI-compatible endpoint (tests/e2e) and reproduce the same transcript.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bs4_env.episode.tool_text import stdout_of
from bs4_env.evaluation.turns import AssistantTurn, Message, ToolCall, tool_name_of

ProgramFor = Callable[[list[Message]], str]


def _call(messages: list[Message], name: str, arguments: str) -> AssistantTurn:
    call_id = f"call_{len(messages)}_{name}"
    return AssistantTurn(tool_calls=(ToolCall(call_id, name, arguments),))


def navigation_target(stdout: str) -> str | None:
    """A reference program's request to follow a link (its last line ``{"navigate": ...}``)."""
    lines = stdout.strip().splitlines()
    try:
        action = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        return None
    if isinstance(action, dict) and isinstance(action.get("navigate"), str):
        return str(action["navigate"])
    return None


class ReferencePolicy:
    """Runs the archetype's reference program; navigates when it prints ``{"navigate": ..}``."""

    def __init__(self, program_for: ProgramFor) -> None:
        self._program_for = program_for

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn:
        program = self._program_for(messages)
        last = messages[-1]
        if last["role"] != "tool" or tool_name_of(messages, last["tool_call_id"]) == "navigate":
            return _call(messages, "run_python", json.dumps({"code": program}))
        stdout = stdout_of(str(last["content"]))
        href = navigation_target(stdout)
        if href is not None:
            return _call(messages, "navigate", json.dumps({"href": href}))
        return AssistantTurn(content=stdout.strip())


class AbstainPolicy:
    """Always abstains after one look at the page, citing the first script it finds."""

    PROGRAM = (
        "s = make_soup()\nscript = s.find('script')\n"
        "print(script.get('src') if script and script.get('src') else 'no script')"
    )

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn:
        if messages[-1]["role"] != "tool":
            return _call(messages, "run_python", json.dumps({"code": self.PROGRAM}))
        evidence = stdout_of(str(messages[-1]["content"])).strip()
        limit = {"reason": "js_rendered", "evidence": evidence}
        return AssistantTurn(content=json.dumps({"status": "limit", "limit": limit}))


class MalformedThenReferencePolicy(ReferencePolicy):
    """Sends truncated tool arguments first, then retries like the reference policy."""

    TRUNCATED = '{"code": "soup = make_soup()\\nprint(soup.ti'

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn:
        tool_replies = sum(message["role"] == "tool" for message in messages)
        if tool_replies == 0:
            return _call(messages, "run_python", self.TRUNCATED)
        if tool_replies == 1:
            program = self._program_for(messages)
            return _call(messages, "run_python", json.dumps({"code": program}))
        return await super().next_turn(messages, tools)


class RawArgumentsThenReferencePolicy(ReferencePolicy):
    """Sends its first program as bare source instead of JSON arguments (the engine repairs
    that), then goes on like the reference policy."""

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn:
        if not any(message["role"] == "tool" for message in messages):
            return _call(messages, "run_python", self._program_for(messages))
        return await super().next_turn(messages, tools)


class NoCodePolicy:
    """Answers at once without running code (must score 0 even when the answer is right)."""

    def __init__(self, answer_for: Callable[[list[Message]], object]) -> None:
        self._answer_for = answer_for

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn:
        answer = self._answer_for(messages)
        return AssistantTurn(content=json.dumps({"status": "ok", "answer": answer}))
