"""One rollout of the HTML report: a ``<details>`` whose summary is its row, body its transcript.

Everything taken from the results file is text to show, never markup: it goes through
``esc`` (``html.escape`` with quotes), including the ids and class names built from it. The
transcripts hold the pages' own HTML (hostile by design: scripts, comments, broken tags), so
that discipline is what keeps the report inert; tests/test_html_report.py checks it in a browser.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

REWARD_CLASSES = ((1.0, "r-full"), (0.5, "r-part"), (0.0, "r-zero"))


def esc(value: object) -> str:
    """``value`` as HTML text (attribute-safe too)."""
    return html.escape(str(value), quote=True)


def rollout_id(record: dict[str, Any]) -> str:
    """A stable anchor id for a rollout (letters, digits, ``-`` and ``_`` only)."""
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(record["archetype"]))
    return f"rollout-{name}-{record['seed']}"


def reward_text(record: dict[str, Any]) -> str:
    return "error" if record.get("error") else f"{float(record['reward']):.3f}"


def reward_class(record: dict[str, Any]) -> str:
    if record.get("error"):
        return "r-error"
    reward = float(record["reward"])
    for floor, name in REWARD_CLASSES:
        if reward >= floor:
            return name
    return "r-neg"


def _content_text(content: object) -> str:
    """A message's content as plain text: a string, or OpenAI content parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            else:
                parts.append(json.dumps(part, ensure_ascii=False))
        return "\n".join(parts)
    return json.dumps(content, ensure_ascii=False)


def _call_html(call: object) -> str:
    """A tool call: its name, and its code (run_python) or its arguments, pretty-printed."""
    function = call.get("function", call) if isinstance(call, dict) else {}
    name = function.get("name", "?") if isinstance(function, dict) else "?"
    arguments = function.get("arguments", "") if isinstance(function, dict) else call
    try:
        parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
    except json.JSONDecodeError:
        parsed = None  # shown raw: malformed arguments are part of what the report is for
    if isinstance(parsed, dict) and set(parsed) == {"code"} and isinstance(parsed["code"], str):
        body = parsed["code"]
    elif parsed is not None:
        body = json.dumps(parsed, ensure_ascii=False, indent=1)
    else:
        body = str(arguments)
    return f'<div class="call"><b>call {esc(name)}</b><pre>{esc(body)}</pre></div>'


def _message_html(message: dict[str, Any]) -> str:
    role = str(message["role"])
    text = _content_text(message.get("content"))
    calls = "".join(_call_html(call) for call in message.get("tool_calls") or ())
    label = role if role != "tool" else f"tool reply {message.get('tool_call_id', '')}".strip()
    body = f"<pre>{esc(text)}</pre>" if text else ""
    safe_role = re.sub(r"[^a-z]", "", role.lower())
    if role == "system":  # the same long prompt in every rollout: folded, one click away
        return (
            f'<details class="msg m-system"><summary class="role">system prompt</summary>'
            f"{body}</details>"
        )
    return f'<div class="msg m-{safe_role}"><div class="role">{esc(label)}</div>{body}{calls}</div>'


def _components_html(components: dict[str, Any]) -> str:
    if not components:
        return ""
    cells = "".join(
        f"<tr><th>{esc(name)}</th><td>{esc(value)}</td></tr>"
        for name, value in sorted(components.items())
    )
    return f'<table class="components">{cells}</table>'


def rollout_html(record: dict[str, Any]) -> str:
    """The rollout's ``<details>``: summary row (archetype, seed, labels, reward) and body."""
    error = record.get("error")
    summary = "".join(
        f'<span class="c-{key}">{esc(value)}</span>'
        for key, value in (
            ("archetype", record["archetype"]),
            ("seed", record["seed"]),
            ("difficulty", record["difficulty"]),
            ("category", record["category"]),
        )
    )
    reward = f'<span class="c-reward {reward_class(record)}">{esc(reward_text(record))}</span>'
    explanation = f'<span class="c-explanation">{esc(record.get("explanation") or "")}</span>'
    messages = "".join(_message_html(m) for m in record.get("transcript") or ())
    final = record.get("final") or ""
    body = [
        f'<p class="error-text">error: {esc(error)}</p>' if error else "",
        _components_html(record.get("components") or {}),
        f'<div class="transcript">{messages or "<p>(no transcript)</p>"}</div>',
        f'<div class="final"><div class="role">final answer</div><pre>{esc(final)}</pre></div>',
    ]
    return (
        f'<details class="rollout" id="{esc(rollout_id(record))}">'
        f"<summary>{summary}{reward}{explanation}</summary>"
        f'<div class="body">{"".join(body)}</div></details>'
    )
