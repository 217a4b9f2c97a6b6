"""Tool calls the tool server never sees, answered on the host through the episode engine.

A model's tool call whose arguments are not what the MCP tool takes (bad JSON, a wrong key,
double-encoded JSON, an unknown tool) must get the engine's repair-or-instruct answer and be
counted exactly as ``bs4-env eval`` counts it (``Episode.call_tool``). Where that happens
depends on the harness, and both shapes are handled by the one request hook
(``BS4Task.answer_unrunnable_calls``):

* **Gate** (verifiers >= 0.4: the null harness has ``SUPPORTS_TOOL_INTERCEPTION``). Before it
  runs a call, the harness sends the request hook an empty tool message for it. A call that is
  not exactly ``{param: str}`` for a known tool is answered here, before anything ran, and the
  harness records that reply (``answer_gate_probe``).
* **No gate** (the verifiers prime-rl pins, ``0.3.1.dev62`` = ``a60a606``: its null harness
  parses the arguments itself and answers bad JSON with its own error). The harness's reply
  reaches the model only with the next model request, which passes the request hook: every
  tool message there that answers a call the tool never received is replaced by the engine's
  reply (``answer_harness_errors``). The harness keeps its own history, so the same message
  comes back on every later request; the reply is computed once per call id and kept in the
  state (``BS4State.host_replies``), so later requests get the identical text and the graph
  prefix still matches. Two things the pinned version makes different, pinned by tests: such
  a call is answered after the valid calls of the same turn ran (the engine runs a turn's
  calls in order), and a call of a turn no later model request follows (the turn limit ended
  the rollout) is settled at grading (``settle_unanswered``), where its reply reaches no one.

Host-answered calls run in the same configured sandbox kind as the tool server (one lazily
started worker per event loop), so malformed arguments never buy weaker isolation.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Sequence
from typing import Any

import verifiers.v1 as vf

from bs4_env.episode.engine import TOOL_SPECS, Budgets
from bs4_env.integrations.verifiers_v1.state import BS4State, LazyExecutor, call_on_state
from bs4_env.sandbox.base import Executor

HOST_POOL_SIZE = 1  # repaired calls are rare; one warm worker serves them
# How a gate-less harness (or MCP's argument validation) answers a call the tool never ran.
HARNESS_ERROR_PREFIXES = ("error:", "Error executing tool")
_HOST_EXECUTORS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Executor] = (
    weakref.WeakKeyDictionary()
)


def host_executor(kind: str) -> Executor:
    """This event loop's executor for calls answered on the host (started on first use).

    Its workers die with the host process (PDEATHSIG), so none outlive an eval run.
    """
    loop = asyncio.get_running_loop()
    if loop not in _HOST_EXECUTORS:
        _HOST_EXECUTORS[loop] = LazyExecutor(kind, HOST_POOL_SIZE)
    return _HOST_EXECUTORS[loop]


def _parsed(arguments: str | None) -> object:
    try:
        return json.loads(arguments or "")
    except (ValueError, RecursionError):
        return None


def runs_on_toolset(name: str, arguments: str | None) -> bool:
    """The gate's test: a known tool and arguments that are exactly ``{<param>: <string>}``.
    Anything else goes through the engine's repair on the host."""
    spec = TOOL_SPECS.get(name)
    parsed = _parsed(arguments)
    return (
        spec is not None
        and isinstance(parsed, dict)
        and list(parsed) == [spec.param]
        and isinstance(parsed[spec.param], str)
    )


def reaches_tool(name: str, arguments: str | None) -> bool:
    """Whether a gate-less harness hands the call to our MCP tool: a known tool, arguments
    that parse as a JSON object (the harness reads ``""`` as ``{}``) whose parameter is a
    string (MCP validates it and ignores extra keys, as the engine's repair does)."""
    spec = TOOL_SPECS.get(name)
    parsed = _parsed(arguments or "{}")
    return spec is not None and isinstance(parsed, dict) and isinstance(parsed.get(spec.param), str)


def _calls_by_id(messages: list[Any]) -> dict[str, vf.ToolCall]:
    return {
        call.id: call
        for message in messages
        if isinstance(message, vf.AssistantMessage)
        for call in message.tool_calls or ()
    }


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(getattr(part, "text", "") or "") for part in content)
    return ""


async def _answer(state: BS4State, call: vf.ToolCall, executor: Executor, budgets: Budgets) -> str:
    """The engine's reply to ``call`` (computed once per call id, then replayed)."""
    if call.id not in state.host_replies:
        reply = await call_on_state(state, call.name, call.arguments, executor, budgets)
        state.host_replies[call.id] = reply
        state.host_calls += 1
    return state.host_replies[call.id]


async def answer_gate_probe(
    request: vf.Request, state: BS4State, executor: Executor, budgets: Budgets
) -> vf.Request | None:
    """Gate: answer the probed call on the host unless the tool server can take it as is."""
    probe = request.messages[-1]
    call = _calls_by_id(request.messages[:-1]).get(probe.tool_call_id)
    if call is None or runs_on_toolset(call.name, call.arguments):
        return None
    reply = await _answer(state, call, executor, budgets)
    messages = [*request.messages[:-1], probe.model_copy(update={"content": reply})]
    result: vf.Request = request.model_copy(update={"messages": messages})
    return result


async def answer_harness_errors(
    request: vf.Request,
    state: BS4State,
    executor: Executor,
    budgets: Budgets,
    sampled: Sequence[Any] = (),
) -> vf.Request | None:
    """No gate: replace the harness's answer to every call the tool never ran.

    A call is judged by what the model sent: its ``sampled`` reply (``trace.assistant_messages``)
    where there is one, since the request's copy carries the arguments the engine ran
    (``history_proxy``); else the request's own (a prompt-supplied call).
    """
    calls = {**_calls_by_id(request.messages), **_calls_by_id(list(sampled))}
    messages = list(request.messages)
    changed = False
    for position, message in enumerate(messages):
        if not isinstance(message, vf.ToolMessage):
            continue
        call = calls.get(message.tool_call_id)
        if call is None or reaches_tool(call.name, call.arguments):
            continue
        content = _text(message.content)
        known = state.host_replies.get(call.id)
        if content == known:
            continue
        if known is None and not content.startswith(HARNESS_ERROR_PREFIXES):
            raise RuntimeError(
                f"tool call {call.id} ({call.name}, arguments {call.arguments[:80]!r}) got a "
                f"reply that is no harness error ({content[:80]!r}): the harness ran a call "
                "the engine would repair, so answering it again would count it twice"
            )
        reply = await _answer(state, call, executor, budgets)
        messages[position] = message.model_copy(update={"content": reply})
        changed = True
    if not changed:
        return None
    result: vf.Request = request.model_copy(update={"messages": messages})
    return result


async def settle_unanswered(
    trace: vf.Trace, state: BS4State, executor: Executor, budgets: Budgets
) -> None:
    """No gate, last turn: calls of a final tool-calling reply that no later request carried
    to the hook are answered now, so the episode counts them as the engine does."""
    replies = trace.assistant_messages
    if not replies or not replies[-1].tool_calls:
        return
    for call in replies[-1].tool_calls:
        if not reaches_tool(call.name, call.arguments):
            await _answer(state, call, executor, budgets)
