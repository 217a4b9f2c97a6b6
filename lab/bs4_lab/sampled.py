"""Training sequences from what the model actually sampled, not from re-rendered text.

A rollout served by llama.cpp records, per assistant turn, the messages the model was sent and
the token ids it sampled (``Rollout.sampled``). Each turn's context is those messages rendered
with the model's chat template and the generation prompt (what the server renders and
tokenizes); the turn's trained tokens are the sampled ids themselves, so a tool call sampled
under llama.cpp's call grammar is trained token for token as it was produced, with the ids the
sampler picked rather than a re-tokenisation of its text.

Turns are joined into one sequence while each next context starts with everything before it
(the template re-renders the earlier turn exactly as it was sampled); where it does not, a new
sequence starts from that turn's own context, so every trained token is conditioned on exactly
the context the model saw when it sampled it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bs4_lab.render import ChatTokenizer, RenderError, Sequence_, template_messages


def _context_ids(
    tokenizer: ChatTokenizer, messages: Sequence[dict[str, Any]], tools: list[dict[str, Any]]
) -> list[int]:
    text = tokenizer.apply_chat_template(
        template_messages(messages), tools=tools, tokenize=False, add_generation_prompt=True
    )
    if not isinstance(text, str):
        raise RenderError("the chat template did not return text")
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


def sampled_sequences(
    tokenizer: ChatTokenizer,
    history: Sequence[dict[str, Any]],
    sampled: Sequence[tuple[int, Sequence[int]]],
    tools: list[dict[str, Any]],
) -> list[Sequence_]:
    """The sequences of one rollout: contexts untrained, sampled ids trained."""
    if not sampled:
        raise RenderError("the rollout recorded no sampled token ids")
    sequences: list[Sequence_] = []
    ids: list[int] = []
    mask: list[bool] = []
    for sent, tokens in sampled:
        if not 0 < sent <= len(history):
            raise RenderError(f"a turn was sent {sent} messages; the history has {len(history)}")
        if not tokens:
            continue  # an empty reply trains nothing
        context = _context_ids(tokenizer, history[:sent], tools)
        if ids and context[: len(ids)] == ids:
            mask += [False] * (len(context) - len(ids))
            ids = context
        else:
            if ids:
                sequences.append(Sequence_(ids, mask))
            ids, mask = context, [False] * len(context)
        ids = ids + list(tokens)
        mask = mask + [True] * len(tokens)
    if not ids:
        raise RenderError("every sampled turn was empty")
    sequences.append(Sequence_(ids, mask))
    return sequences
