"""The tool-call arguments a chat history sends back to the model: the ones the engine ran.

Every path keeps the model's raw text in its transcript, but what it sends back on the next
request is this: servers such as llama.cpp and vLLM's chat preprocessing parse every earlier
call's arguments and answer HTTP 500 to bare source or truncated JSON, which would turn exactly
the episodes the engine's repair exists for into error rows. ``bs4-env eval`` and the classic
verifiers adapter apply it to their own history; the verifiers v1 harness, whose chat program
keeps the model's raw text, gets it from a proxy in front of the interception endpoint that
rewrites each request (``verifiers_v1/history_proxy.py``, with ``engine_arguments``).
"""

from __future__ import annotations

import json

from bs4_env.episode.engine import TOOL_SPECS
from bs4_env.tools.arg_repair import repair_tool_arguments


def history_arguments(raw: str, executed: dict[str, str] | None) -> str:
    """The arguments to send back for one call with ``raw`` arguments: the model's own text
    when it already is the JSON object the engine ran (its tokens stay as sampled), else that
    object as JSON; ``{}`` when nothing ran (refused arguments, an unknown tool)."""
    if executed is None:
        return "{}"
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        parsed = None
    return raw if parsed == executed else json.dumps(executed)


def engine_arguments(name: str, raw: str) -> dict[str, str] | None:
    """What ``Episode.call_tool(name, raw)`` runs (its repair is a pure function of the call):
    the repaired arguments, or None when it runs nothing (unknown tool, refused arguments)."""
    spec = TOOL_SPECS.get(name)
    return None if spec is None else repair_tool_arguments(spec, raw).arguments
