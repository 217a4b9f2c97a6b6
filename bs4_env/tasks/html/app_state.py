"""Embedded application state as frameworks serialize it, for the ``app_state`` archetypes.

Three real shapes: a Next.js ``__NEXT_DATA__`` JSON script holding a dehydrated
React Query cache (tables as column definitions plus rows keyed by field ids), a Redux
store assigned to ``window.__INITIAL_STATE__`` inside a script that does more than that
assignment, and component props serialized into an HTML attribute (react-rails
``data-react-props``, a Vue ``:items`` binding, a generic ``data-props``).
"""

from __future__ import annotations

import json
from html import escape
from random import Random

from bs4_env.tasks.model import JSONValue
from bs4_env.tasks.rng import token


def to_json(rng: Random, data: object, *, indent: bool = False) -> str:
    """JSON as a server writes it into a script: ``</`` escaped, sometimes ``\\u``-escaped."""
    text = json.dumps(data, ensure_ascii=rng.random() < 0.5, indent=2 if indent else None)
    return text.replace("</", "<\\/")


def field_key(header: str) -> str:
    """The camelCase field id a frontend gives a column ("Lead time" -> "leadTime")."""
    words = "".join(ch if ch.isalnum() else " " for ch in header).split()
    return words[0].lower() + "".join(w.capitalize() for w in words[1:])


def table_query(
    rng: Random, slug: str, caption: str, headers: list[str], rows: list[list[str]]
) -> dict[str, JSONValue]:
    """One cached query of a dehydrated React Query state holding a table.

    Row objects are keyed by field id and their keys are sorted (as many serializers do),
    so the column order and labels come only from ``columns``.
    """
    keys = [field_key(h) for h in headers]
    data = {
        "title": caption,
        "columns": [{"key": k, "label": h} for k, h in zip(keys, headers, strict=True)],
        "rows": [dict(sorted(zip(keys, row, strict=True))) for row in rows],
    }
    return {
        "queryKey": ["report", slug],
        "queryHash": json.dumps(["report", slug], separators=(",", ":")),
        "state": {
            "data": data,
            "dataUpdatedAt": 1_700_000_000_000 + rng.randrange(10**10),
            "status": "success",
        },
    }


def next_data(rng: Random, queries: list[dict[str, JSONValue]], page: str) -> str:
    """The ``__NEXT_DATA__`` script of a page whose props carry ``queries``."""
    data = {
        "props": {
            "pageProps": {"dehydratedState": {"mutations": [], "queries": queries}},
            "__N_SSP": True,
        },
        "page": page,
        "query": {"slug": token(rng, 6)},
        "buildId": token(rng, 21),
        "isFallback": False,
        "gssp": True,
        "scriptLoader": [],
    }
    return f'<script id="__NEXT_DATA__" type="application/json">{to_json(rng, data)}</script>'


def initial_state_script(rng: Random, state: dict[str, JSONValue]) -> str:
    """A script assigning ``window.__INITIAL_STATE__`` in one of three real styles.

    The literal is never the whole script: other assignments follow it, or the state is a
    JSON text inside a JavaScript string passed to ``JSON.parse``.
    """
    env = {"apiBase": f"/api/{token(rng, 4)}", "release": token(rng, 8)}
    style = rng.randrange(3)
    if style == 0:
        body = (
            f"window.__INITIAL_STATE__ = {to_json(rng, state)};"
            f"window.__ENV__ = {to_json(rng, env)};"
        )
    elif style == 1:
        # A JSON text in a JS string literal: json.dumps of the text is a valid one.
        literal = json.dumps(json.dumps(state)).replace("</", "<\\/")
        body = f"window.__INITIAL_STATE__ = JSON.parse({literal});"
    else:
        body = (
            f"\n  window.__ENV__ = {to_json(rng, env)};\n"
            f"  window.__INITIAL_STATE__ = {to_json(rng, state, indent=True)};\n"
            "  window.__HYDRATE__ && window.__HYDRATE__();\n"
        )
    return f"<script>{body}</script>"


def props_attribute(rng: Random, name: str, data: object) -> str:
    """``name="<json>"`` with the JSON HTML-escaped, as templates write component props."""
    text = json.dumps(data, ensure_ascii=rng.random() < 0.3)
    if rng.random() < 0.5:
        return f'{name}="{escape(text, quote=True)}"'
    return f"{name}='{escape(text, quote=False).replace(chr(39), '&#39;')}'"
