"""Compare chat-completions request bodies recorded by the scripted server across paths.

Two requests are "the same" when they agree on everything but what only the transport
decides: ``stream`` / ``stream_options``, the ``index`` the OpenAI SDK leaves on tool calls it
reassembled from a stream, and the timing line of tool replies (wall clock). Bodies are paired
by conversation: the opening user prompt and the number of messages.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bs4_env.episode.tool_text import without_timing

TRANSPORT_FIELDS = ("stream", "stream_options")

Key = tuple[str, int]


def _message(message: dict[str, Any]) -> dict[str, Any]:
    out = dict(message)
    if out.get("role") == "tool" and isinstance(out.get("content"), str):
        out["content"] = without_timing(out["content"])
    if out.get("tool_calls"):
        out["tool_calls"] = [
            {k: v for k, v in call.items() if k != "index"} for call in out["tool_calls"]
        ]
    return out


def comparable(body: dict[str, Any]) -> dict[str, Any]:
    """The body without transport fields, with timing lines removed."""
    out = {k: v for k, v in body.items() if k not in TRANSPORT_FIELDS}
    out["messages"] = [_message(m) for m in body.get("messages", [])]
    return out


def key_of(body: dict[str, Any]) -> Key:
    messages = body.get("messages", [])
    prompt = next((str(m.get("content")) for m in messages if m.get("role") == "user"), "")
    return prompt, len(messages)


def by_conversation(bodies: Iterable[dict[str, Any]]) -> dict[Key, dict[str, Any]]:
    grouped: dict[Key, dict[str, Any]] = {}
    for body in bodies:
        key = key_of(body)
        if key in grouped:
            raise AssertionError(f"two requests for the same turn: {key[0][:60]!r} #{key[1]}")
        grouped[key] = comparable(body)
    return grouped


def _paths(a: Any, b: Any, path: str) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b))
        return [p for k in keys for p in _paths(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            p
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for p in _paths(x, y, f"{path}[{i}]")
        ]
    return [] if a == b else [path]


def diff(
    left: Iterable[dict[str, Any]], right: Iterable[dict[str, Any]]
) -> list[tuple[int, str, str, str]]:
    """Every differing field as (turn's message count, path, left, right), sorted; a turn
    only one side sent shows as path ``<request>``."""
    a, b = by_conversation(left), by_conversation(right)
    out = []
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            out.append((key[1], "<request>", str(key in a), str(key in b)))
            continue
        for path in _paths(a[key], b[key], "body"):
            x, y = _lookup(a[key], path), _lookup(b[key], path)
            out.append((key[1], path, json.dumps(x)[:120], json.dumps(y)[:120]))
    return sorted(out)


def _lookup(body: dict[str, Any], path: str) -> Any:
    value: Any = body
    for part in path.replace("[", ".[").split(".")[1:]:
        if value is None:
            return None
        if part.startswith("["):
            index = int(part[1:-1])
            value = value[index] if isinstance(value, list) and index < len(value) else None
        else:
            value = value.get(part) if isinstance(value, dict) else None
    return value
