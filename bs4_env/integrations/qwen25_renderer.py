"""A typed renderer for Qwen2.5 / Qwen2.5-Coder chat models, for prime-rl's SFT trainer.

Why it exists: prime-rl main (559b447) trains SFT only through a *typed* renderer (one that
says which tokens the model sampled), and its ``renderers`` package (0.1.12) registers none
for Qwen2.5: ``auto`` and ``default`` are refused by the SFT config validator, and the typed
``qwen3`` renderer needs ``<tool_response>`` as a single token, which Qwen2.5's vocabulary
lacks. The SFT configs select this class through renderers' custom-renderer hook::

    [renderer]
    name = "custom"
    import_path = "bs4_env.integrations.qwen25_renderer.Qwen25Renderer"

It mirrors the chat template shipped with Qwen2.5-Coder-Instruct (the GGUF's
``tokenizer.chat_template``; Hermes tool format): a system turn (the default Qwen system
prompt when the chat has none) with the tools listed inside ``<tools></tools>``, assistant
calls as ``<tool_call>\\n{"name": ..., "arguments": ...}\\n</tool_call>``, and each run of
tool replies as one user turn of ``<tool_response>\\n...\\n</tool_response>`` blocks, which
in Qwen2.5 are ordinary text. The renderer builds the template's text as attributed segments
and tokenizes it in one pass, so its token ids are the template's by construction; per token
it records the owning message, whether the model samples it (assistant content, tool calls
and the closing ``<|im_end|>``) and whether it is message body, read from the tokenizer's
character offsets.

Verified (``tests/test_qwen25_renderer.py``) against ``apply_chat_template`` of the tiny CI
tokenizer with its Qwen2.5-style template (``bs4_lab.tiny_model``) and of the real
Qwen2.5-Coder-0.5B-Instruct GGUF tokenizer and template, on ``bs4-env sft-data`` episodes and
on parallel calls, content beside calls, a later system turn, and chats without a system turn
or tools: token ids, the loss mask (each assistant turn after its generation prompt, through
``<|im_end|>``), parsing sampled turns back, and ``bridge_to_next_turn``.

Differences from the template: string tool-call arguments are emitted verbatim (the template
would JSON-quote them a second time; prime-rl's loader hands over dicts anyway), content given
as a list is reduced to its text parts, ``reasoning_content`` is ignored (as the template does),
and a role the template does not know raises instead of being dropped. The tokenizer must give
character offsets (every Hugging Face fast tokenizer does). Only renderers' custom-renderer
loader (and the tests) import this module: nothing else in ``bs4_env`` imports it or
``renderers``.
"""

from __future__ import annotations

import bisect
import itertools
import json
from typing import Any, ClassVar, Literal, NamedTuple

from renderers.base import (  # type: ignore[import-untyped]
    Message,
    ParsedResponse,
    RenderedTokens,
    Tokenizer,
    ToolSpec,
    extract_message_tool_names,
    reject_assistant_in_extension,
    trim_to_turn_close,
)
from renderers.configs import BaseRendererConfig  # type: ignore[import-untyped]
from renderers.parsers import Qwen3ToolParser  # type: ignore[import-untyped]

DEFAULT_SYSTEM_PROMPT = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
TOOLS_HEADER = (
    "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
TOOLS_FOOTER = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)


class Qwen25RendererConfig(BaseRendererConfig):  # type: ignore[misc]
    """The renderer's own config (renderers validates the ``[renderer]`` table with it)."""

    name: Literal["qwen2.5"] = "qwen2.5"
    default_system_prompt: str = DEFAULT_SYSTEM_PROMPT
    """The system turn the template writes when the chat has none."""

    _internal_fields = frozenset({"default_system_prompt"})


class Segment(NamedTuple):
    """A piece of the template's text and the attribution of the tokens that start in it."""

    text: str
    message: int  # index into the rendered messages; -1 for scaffolding outside any message
    sampled: bool  # the model emits it
    content: bool  # message body, not template scaffolding


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of an OpenAI content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") if isinstance(p, dict) else p for p in content]
        return "".join(p for p in parts if isinstance(p, str))
    return ""


def _tool_call_text(call: dict[str, Any]) -> str:
    function = call.get("function", call)
    arguments = function.get("arguments", {})
    if not isinstance(arguments, str):  # the template's ``tojson``
        arguments = json.dumps(arguments, ensure_ascii=False)
    name = function.get("name", "")
    return f'<tool_call>\n{{"name": "{name}", "arguments": {arguments}}}\n</tool_call>'


class Qwen25Renderer:
    """Messages and tools to Qwen2.5 chat-template token ids with sampled/body attribution,
    and completions back to content and tool calls (``renderers.base.Renderer``)."""

    config_class: ClassVar[type[Qwen25RendererConfig]] = Qwen25RendererConfig

    def __init__(self, tokenizer: Tokenizer, config: Qwen25RendererConfig | None = None) -> None:
        self._tokenizer = tokenizer
        self.config = config or Qwen25RendererConfig()
        self._im_end = self._token_id("<|im_end|>")
        self._endoftext = self._token_id("<|endoftext|>")
        for marker in ("<|im_start|>", "<tool_call>", "</tool_call>"):
            self._token_id(marker)
        self._tool_parser = Qwen3ToolParser(tokenizer)  # the Hermes <tool_call> JSON format

    def _token_id(self, token: str) -> int:
        token_id = self._tokenizer.convert_tokens_to_ids(token)
        if not isinstance(token_id, int) or token_id == self._tokenizer.unk_token_id:
            raise ValueError(f"{token!r} is not a single token of this tokenizer")
        return token_id

    @property
    def is_prefix_stable(self) -> bool:
        # Every turn ends with <|im_end|>\n and the next opens with <|im_start|>: appending
        # messages never changes the tokens before them.
        return True

    # --- rendering ---------------------------------------------------------------------------

    def _system_segments(
        self, messages: list[Message], tools: list[ToolSpec] | None
    ) -> list[Segment]:
        has_system = messages[0].get("role") == "system"
        index = 0 if has_system else -1
        body = (
            _text(messages[0].get("content")) if has_system else self.config.default_system_prompt
        )
        segments = [Segment("<|im_start|>system\n", index, False, False)]
        segments.append(Segment(body, index, False, has_system))
        if tools:
            segments.append(Segment(TOOLS_HEADER, index, False, False))
            for tool in tools:
                segments.append(
                    Segment("\n" + json.dumps(tool, ensure_ascii=False), index, False, False)
                )
            segments.append(Segment(TOOLS_FOOTER, index, False, False))
        segments.append(Segment("<|im_end|>\n", index, False, False))
        return segments

    def _turn_segments(self, messages: list[Message], i: int) -> list[Segment]:
        """Message ``i``'s turn (a system message after the first, user, assistant or tool)."""
        message = messages[i]
        role, body = message.get("role"), _text(message.get("content"))
        if role in ("system", "user"):
            return [
                Segment(f"<|im_start|>{role}\n", i, False, False),
                Segment(body, i, False, True),
                Segment("<|im_end|>\n", i, False, False),
            ]
        if role == "assistant":
            # "<|im_start|>assistant\n" is the generation prompt; the model samples the rest up
            # to and including <|im_end|>.
            segments = [Segment("<|im_start|>assistant\n", i, False, False)]
            calls = message.get("tool_calls") or []
            if not calls:
                segments.append(Segment(body, i, True, True))
            elif body:
                segments.append(Segment(body + "\n", i, True, True))
            for k, call in enumerate(calls):
                segments.append(Segment(("\n" if k else "") + _tool_call_text(call), i, True, True))
            segments.append(Segment("<|im_end|>", i, True, True))
            segments.append(Segment("\n", i, False, False))
            return segments
        if role == "tool":
            # A run of tool replies is one user turn, tokenized as one piece of text.
            first = i == 0 or messages[i - 1].get("role") != "tool"
            last = i + 1 == len(messages) or messages[i + 1].get("role") != "tool"
            segments = [Segment("<|im_start|>user", i, False, False)] if first else []
            segments.append(Segment("\n<tool_response>\n", i, False, False))
            segments.append(Segment(body, i, False, True))
            segments.append(Segment("\n</tool_response>", i, False, False))
            if last:
                segments.append(Segment("<|im_end|>\n", i, False, False))
            return segments
        raise ValueError(f"message {i}: the Qwen2.5 template has no role {role!r}")

    def _tokenize(self, segments: list[Segment]) -> tuple[list[int], list[Segment]]:
        """One tokenizer pass over the joined text (as ``apply_chat_template`` encodes it), and
        each token's segment: the one its first character is in (from the tokenizer's offsets,
        which every Hugging Face fast tokenizer, the kind prime-rl loads, gives)."""
        segments = [s for s in segments if s.text]
        starts = list(itertools.accumulate((len(s.text) for s in segments[:-1]), initial=0))
        try:
            encoding = self._tokenizer(
                "".join(s.text for s in segments),
                add_special_tokens=False,
                return_offsets_mapping=True,
            )
            ids, offsets = list(encoding["input_ids"]), list(encoding["offset_mapping"])
        except (KeyError, NotImplementedError, TypeError, ValueError) as error:
            raise ValueError(
                "the Qwen2.5 renderer needs a tokenizer that returns character offsets "
                "(a Hugging Face fast tokenizer)"
            ) from error
        owners = [segments[max(0, bisect.bisect_right(starts, start) - 1)] for start, _ in offsets]
        return ids, owners

    def _rendered(self, segments: list[Segment], messages: list[Message]) -> RenderedTokens:
        ids, owners = self._tokenize(segments)
        return RenderedTokens(
            token_ids=ids,
            message_indices=[s.message for s in owners],
            sampled_mask=[s.sampled for s in owners],
            is_content=[s.content for s in owners],
            message_roles=[m.get("role") or "" for m in messages],
            message_tool_names=extract_message_tool_names(messages),
        )

    def render(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        add_generation_prompt: bool = False,
    ) -> RenderedTokens:
        if not messages:
            raise ValueError("No messages provided.")
        segments = self._system_segments(messages, tools)
        for i, message in enumerate(messages):
            if not (i == 0 and message.get("role") == "system"):
                segments += self._turn_segments(messages, i)
        if add_generation_prompt:
            segments.append(Segment("<|im_start|>assistant\n", -1, False, False))
        return self._rendered(segments, messages)

    def render_ids(
        self,
        messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
        add_generation_prompt: bool = False,
    ) -> list[int]:
        rendered = self.render(messages, tools=tools, add_generation_prompt=add_generation_prompt)
        return list(rendered.token_ids)

    def bridge_to_next_turn(
        self,
        previous_prompt_ids: list[int],
        previous_completion_ids: list[int],
        new_messages: list[Message],
        *,
        tools: list[ToolSpec] | None = None,
    ) -> RenderedTokens | None:
        """The previous prompt and completion kept as sampled (closed with <|im_end|> if the
        completion was cut off), then the new user/system/tool turns and the generation prompt."""
        if (
            not previous_prompt_ids
            or not new_messages
            or reject_assistant_in_extension(new_messages)
        ):
            return None
        previous: list[int] | None = trim_to_turn_close(
            previous_prompt_ids,
            previous_completion_ids,
            {self._im_end, self._endoftext},
            synthesize_close=self._im_end,
        )
        if previous is None:
            return None
        segments = [Segment("\n", -1, False, False)]  # after <|im_end|>; vLLM stops before it
        for i in range(len(new_messages)):
            try:
                segments += self._turn_segments(new_messages, i)
            except ValueError:
                return None
        segments.append(Segment("<|im_start|>assistant\n", -1, False, False))
        added = self._rendered(segments, new_messages)
        return RenderedTokens(
            token_ids=previous + list(added.token_ids),
            message_indices=[-1] * len(previous) + list(added.message_indices),
            sampled_mask=[False] * (len(previous) + len(added.token_ids)),
            is_content=[False] * len(previous) + list(added.is_content),
            message_roles=added.message_roles,
            message_tool_names=added.message_tool_names,
        )

    # --- parsing -----------------------------------------------------------------------------

    def get_stop_token_ids(self) -> list[int]:
        return [self._im_end, self._endoftext]

    def parse_response(
        self,
        token_ids: list[int],
        *,
        tools: list[ToolSpec] | None = None,
        prompt_ids: list[int] | None = None,
    ) -> ParsedResponse:
        """Content and Hermes tool calls of a completion, up to its first stop token (Qwen2.5
        has no reasoning channel: ``reasoning_content`` is always None)."""
        stops = set(self.get_stop_token_ids())
        end = next((k for k, t in enumerate(token_ids) if t in stops), len(token_ids))
        content_ids, calls = self._tool_parser.extract(list(token_ids[:end]))
        content = (
            self._tokenizer.decode(content_ids, skip_special_tokens=False) if content_ids else ""
        )
        return ParsedResponse(content=content.strip(), reasoning_content=None, tool_calls=calls)
