"""A per-rollout proxy in front of the interception endpoint that sends back the arguments the
engine ran in every earlier tool call of the chat history.

verifiers' chat program (the ``null`` harness, in the pinned 0.3.1.dev62 and in 0.4) keeps the
model's own message in its history and sends it back on every request; no task hook may
rewrite an assistant message (``RolloutSession.rewrite_request``: "request interceptors can
only rewrite new user or tool messages"). A strict endpoint (llama.cpp; vLLM's chat
preprocessing ``json.loads`` every history call) answers HTTP 500 to raw source or truncated
JSON there. So ``BeautifulSoupHarness`` points its program at this proxy, which rewrites each
assistant tool call's arguments with ``history_arguments`` (the JSON object the engine ran, or
``{}``; a call that already is that object keeps its bytes) and forwards the request, headers
and streamed response unchanged otherwise.

What the interception server then sees is what the endpoint gets: the trace keeps the model's
sampled message (raw text, ``trace.assistant_messages``) and the rewritten one as a prompt
node of the next turn (verifiers' graph forks there, as it does for any prompt-supplied
assistant message), and the engine's repair-or-instruct reply still answers the raw call
(``host_calls``). Byte-identical requests stay byte-identical (the rewrite is deterministic),
so the server's retry replay still recognises SDK retries.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

from aiohttp import ClientSession, ClientTimeout, web

from bs4_env.episode.history import engine_arguments, history_arguments

# Hop-by-hop or recomputed by aiohttp; Accept-Encoding is dropped so bodies pass as they are.
_DROPPED_REQUEST_HEADERS = frozenset({"host", "content-length", "transfer-encoding", "connection",
                                      "accept-encoding"})  # fmt: skip
_DROPPED_RESPONSE_HEADERS = frozenset({"content-length", "transfer-encoding", "connection",
                                       "content-encoding"})  # fmt: skip


def history_messages(messages: list[Any]) -> bool:
    """Rewrite, in place, each assistant tool call's arguments to what the engine ran;
    whether anything changed."""
    changed = False
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        for call in message.get("tool_calls") or ():
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict) or not isinstance(function.get("arguments"), str):
                continue
            raw = function["arguments"]
            sent = history_arguments(raw, engine_arguments(str(function.get("name")), raw))
            if sent != raw:
                function["arguments"] = sent
                changed = True
    return changed


def rewritten_body(raw: bytes) -> bytes:
    """A chat request body with the history's arguments rewritten; other bodies unchanged."""
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        return raw
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return raw
    if not history_messages(body["messages"]):
        return raw
    return json.dumps(body).encode()


@asynccontextmanager
async def history_proxy(endpoint: str) -> AsyncIterator[str]:
    """Serve a proxy of ``endpoint`` on a free local port; yields the proxy's endpoint."""
    upstream = urlsplit(endpoint)
    origin = f"{upstream.scheme}://{upstream.netloc}"
    client = ClientSession(timeout=ClientTimeout(total=None), auto_decompress=False)

    async def forward(request: web.Request) -> web.StreamResponse:
        body = rewritten_body(await request.read())
        headers = {
            key: value
            for key, value in request.headers.items()
            if key.lower() not in _DROPPED_REQUEST_HEADERS
        }
        async with client.request(
            request.method, origin + request.path_qs, data=body, headers=headers
        ) as reply:
            response = web.StreamResponse(
                status=reply.status,
                headers={
                    key: value
                    for key, value in reply.headers.items()
                    if key.lower() not in _DROPPED_RESPONSE_HEADERS
                },
            )
            await response.prepare(request)
            async for chunk in reply.content.iter_any():
                await response.write(chunk)
            await response.write_eof()
            return response

    app = web.Application(client_max_size=1 << 30)
    app.router.add_route("*", "/{tail:.*}", forward)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        yield f"http://127.0.0.1:{port}{upstream.path}"
    finally:
        await runner.cleanup()
        await client.close()
