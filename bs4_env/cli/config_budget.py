"""Token budget of one episode under a prime-rl config: does the worst case fit ``seq_len``?

prime-rl merges a multi-turn episode into one training sample of at most ``seq_len`` tokens
(longer ones are truncated) and vLLM refuses a request whose context exceeds
``max_model_len``. The worst-case episode is bounded by the config: the prompt, ``max_turns``
completions of ``max_completion_tokens`` each, and ``max_tool_calls`` tool replies, each at
most the reply cap that ``max_output_bytes`` implies (stdout and stderr are capped apart).
Token counts are estimated conservatively from characters (``CHARS_PER_TOKEN``; Qwen-family
tokenizers average more characters per token on code, HTML and English prose).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from bs4_env.episode.engine import Budgets
from bs4_env.episode.tool_text import format_exec_result
from bs4_env.sandbox.base import DEFAULT_TIMEOUT_S, ExecResult, truncation_marker

CHARS_PER_TOKEN = 3
# Characters of system prompt + user prompt + tool schemas a config must leave room for; a test
# measures the real ones over the archetype registry and keeps them under this.
PROMPT_ALLOWANCE_CHARS = 7_500
# Chat-template framing per message (role markers, <tool_call> / <tool_response> wrappers).
FRAMING_TOKENS_PER_MESSAGE = 32
# Generous upper bounds for the numbers a reply prints (bytes dropped, seconds).
_MANY_BYTES = 10**15
_LONG_SECONDS = 99_999.99

JsonObj = dict[str, Any]


class BudgetError(ValueError):
    """A config leaves an episode unbounded (no turn cap, no completion cap)."""


@dataclass(frozen=True)
class EpisodeLimits:
    """What bounds one episode's length."""

    max_turns: int
    max_completion_tokens: int
    max_tool_calls: int
    max_output_bytes: int


@dataclass(frozen=True)
class Budget:
    """Worst-case tokens of one episode, by part."""

    prompt: int
    completions: int
    tool_replies: int
    framing: int

    @property
    def total(self) -> int:
        return self.prompt + self.completions + self.tool_replies + self.framing


def tokens(chars: int) -> int:
    """Conservative token estimate for ``chars`` characters."""
    return math.ceil(chars / CHARS_PER_TOKEN)


def reply_cap_chars(max_output_bytes: int) -> int:
    """Longest ``run_python`` reply: both streams at the cap, truncation markers, headers."""
    text = "x" * max_output_bytes + truncation_marker(_MANY_BYTES)
    result = ExecResult(
        stdout=text,
        stderr=text,
        exit_code=-999,
        timed_out=False,
        duration_s=_LONG_SECONDS,
        queue_wait_s=_LONG_SECONDS,
    )
    timed_out = replace(result, timed_out=True)
    return max(
        len(format_exec_result(result, DEFAULT_TIMEOUT_S)),
        len(format_exec_result(timed_out, _LONG_SECONDS)),
    )


def episode_budget(limits: EpisodeLimits) -> Budget:
    """The worst-case token budget of one episode under ``limits``."""
    messages = 2 + limits.max_turns + limits.max_tool_calls
    return Budget(
        prompt=tokens(PROMPT_ALLOWANCE_CHARS),
        completions=limits.max_turns * limits.max_completion_tokens,
        tool_replies=limits.max_tool_calls * tokens(reply_cap_chars(limits.max_output_bytes)),
        framing=messages * FRAMING_TOKENS_PER_MESSAGE,
    )


def source_limits(doc: JsonObj, group: str, source: JsonObj) -> EpisodeLimits:
    """Limits of one ``[[orchestrator.<group>.source]]`` (v1 taskset or legacy args).

    Unset engine fields take the engine's defaults; a missing turn cap or completion cap is an
    error, because then nothing bounds the episode.
    """
    legacy = source.get("legacy", {}).get("args")
    if legacy is not None:
        engine: JsonObj = legacy
        max_turns = legacy.get("max_turns")
    else:
        env = source.get("env", {})
        engine = env.get("taskset", {})
        max_turns = env.get("agent", {}).get("max_turns")
    sampling = {
        **doc.get("orchestrator", {}).get(group, {}).get("sampling", {}),
        **source.get("sampling", {}),
    }
    completion = sampling.get("max_completion_tokens")
    name = source.get("name", "?")
    if not isinstance(max_turns, int):
        raise BudgetError(f"{group} source {name}: set max_turns, or no turn cap bounds it")
    if not isinstance(completion, int):
        raise BudgetError(f"{group} source {name}: set sampling max_completion_tokens")
    defaults = Budgets()
    return EpisodeLimits(
        max_turns=max_turns,
        max_completion_tokens=completion,
        max_tool_calls=int(engine.get("max_tool_calls", defaults.max_tool_calls)),
        max_output_bytes=int(engine.get("max_output_bytes", defaults.max_output_bytes)),
    )


def sources(doc: JsonObj) -> list[tuple[str, JsonObj]]:
    """Every ``(group, source)`` of an rl config, train first."""
    orchestrator = doc.get("orchestrator", {})
    return [
        (group, source)
        for group in ("train", "eval")
        for source in orchestrator.get(group, {}).get("source", [])
    ]
