"""Episodes as training sequences: chat-template tokens, a loss mask, and the shared prefix.

An episode is OpenAI-style ``messages`` plus the tool schemas, rendered with the model's own
chat template (the GGUF's for Qwen2.5-Coder), so training sees the bytes serving renders. The
loss covers the assistant turns only: each one's text and its closing ``<|im_end|>``, found by
rendering the conversation up to the turn with the generation prompt and up to its end, except
the turns a record lists in ``untrained_turns`` (a deliberately wrong program that an episode
shows failing: the model should read it, not learn to write it). Every
episode starts with the same system prompt and tool schemas; ``shared_prefix_length`` finds
those tokens so the trainer can run them once per step instead of once per episode.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class ChatTokenizer(Protocol):
    """The part of a Hugging Face tokenizer used here."""

    def apply_chat_template(self, conversation: Any, **kwargs: Any) -> Any: ...

    def __call__(self, text: str, **kwargs: Any) -> Any: ...


@dataclass(frozen=True)
class Sequence_:
    """One rendered episode: token ids and which of them the loss covers."""

    ids: list[int]
    mask: list[bool]

    @property
    def trained(self) -> int:
        return sum(self.mask)


class RenderError(ValueError):
    """An episode the template cannot render as a training sequence (message says why)."""


def template_messages(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as chat templates expect them: tool-call arguments as objects, not JSON text.

    Rollouts and ``sft-data`` store arguments as the JSON text the model wrote (OpenAI
    format); Qwen-style templates print ``arguments | tojson`` and would quote that text.
    """
    out: list[dict[str, Any]] = []
    for message in messages:
        copy = {k: v for k, v in message.items() if v is not None}
        calls = message.get("tool_calls") or []
        if calls:
            converted = []
            for call in calls:
                arguments = call["function"]["arguments"]
                if isinstance(arguments, str):
                    try:
                        arguments = json.loads(arguments)
                    except json.JSONDecodeError as error:
                        raise RenderError(f"tool-call arguments are not JSON: {error}") from None
                converted.append({**call, "function": {**call["function"], "arguments": arguments}})
            copy["tool_calls"] = converted
        out.append(copy)
    return out


def _render(
    tokenizer: ChatTokenizer,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    generation_prompt: bool,
) -> str:
    text = tokenizer.apply_chat_template(
        messages, tools=tools, tokenize=False, add_generation_prompt=generation_prompt
    )
    if not isinstance(text, str):
        raise RenderError("the chat template did not return text")
    return text


def render_episode(
    tokenizer: ChatTokenizer,
    messages: Sequence[dict[str, Any]],
    tools: list[dict[str, Any]],
    untrained: Collection[int] = (),
) -> Sequence_:
    """Token ids of the whole conversation and the mask of assistant tokens, less the
    assistant turns at the message indices ``untrained``."""
    converted = template_messages(messages)
    wrong = sorted(
        i for i in untrained if not 0 <= i < len(converted) or converted[i]["role"] != "assistant"
    )
    if wrong:
        raise RenderError(f"untrained turns {wrong} are not assistant messages")
    full = _render(tokenizer, converted, tools, generation_prompt=False)
    spans: list[tuple[int, int]] = []
    for index, message in enumerate(converted):
        if message["role"] != "assistant" or index in untrained:
            continue
        before = _render(tokenizer, converted[:index], tools, generation_prompt=True)
        through = _render(tokenizer, converted[: index + 1], tools, generation_prompt=False)
        if not (full.startswith(through) and through.startswith(before)):
            raise RenderError(
                f"the chat template does not render turn {index} as a prefix of the conversation"
            )
        # The turn's text and its end-of-turn token; the newline the template writes after
        # that token separates turns and is not the model's to predict.
        spans.append((len(before), len(through.rstrip("\n"))))
    if not spans:
        raise RenderError("the episode has no assistant turn to train on")
    encoded = tokenizer(full, add_special_tokens=False, return_offsets_mapping=True)
    ids = list(encoded["input_ids"])
    mask = [any(a <= start < b for a, b in spans) for start, _ in encoded["offset_mapping"]]
    return Sequence_(ids, mask)


def render_record(tokenizer: ChatTokenizer, record: dict[str, Any]) -> Sequence_:
    """An ``sft-data`` record as a training sequence. Records written before
    ``untrained_turns`` existed (runs 1-4) train on every assistant turn, as those runs did."""
    return render_episode(
        tokenizer,
        record["messages"],
        json.loads(record["tools"]),
        record.get("untrained_turns", ()),
    )


def shared_prefix_length(sequences: Sequence[Sequence_]) -> int:
    """Tokens every sequence starts with and none trains on (the system prompt and tools)."""
    if not sequences:
        raise ValueError("no sequences")
    first = sequences[0].ids
    length = min(len(s.ids) for s in sequences)
    for s in sequences[1:]:
        k = 0
        while k < length and s.ids[k] == first[k]:
            k += 1
        length = k
    for s in sequences:
        trained = s.mask.index(True)
        length = min(length, trained)
    # Leave at least one token to run with gradient, so every suffix predicts its first token.
    return max(0, length - 1)
