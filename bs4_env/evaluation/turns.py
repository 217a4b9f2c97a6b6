"""Chat turns in OpenAI message format, and the policy interface."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

Message = dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class AssistantTurn:
    """One model reply: text and/or tool calls, with token usage when known."""

    content: str = ""
    tool_calls: tuple[ToolCall, ...] = field(default_factory=tuple)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # The sampled token ids, where the policy asked for them (training on what was sampled).
    token_ids: tuple[int, ...] = ()

    def as_message(self) -> Message:
        message: Message = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in self.tool_calls
            ]
        return message


class Policy(Protocol):
    """Produces the next assistant turn from the conversation so far."""

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn: ...


def tool_name_of(messages: list[Message], tool_call_id: str) -> str | None:
    """The name of the tool call that a tool message answers."""
    for message in reversed(messages):
        for call in message.get("tool_calls") or ():
            if call.get("id") == tool_call_id:
                return str(call["function"]["name"])
    return None
