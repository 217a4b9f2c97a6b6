"""Host-answered tool calls (``bs4_env.integrations.verifiers_v1.host_calls``) without a model.

The same request hook serves a gating harness (verifiers >= 0.4: an empty probe before the
call runs) and the gate-less one prime-rl pins (the harness's own error reply, replaced on the
next request). Either way the model gets the engine's reply and the episode counts the call
exactly as ``Episode.call_tool`` does, once, however often the harness resends its history.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from bs4_env.episode.engine import Budgets, Episode, EpisodeState
from bs4_env.evaluation.scripted import MalformedThenReferencePolicy
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.registry import build_task

pytestmark = pytest.mark.integration

TASK = build_task("text_by_id", 200_000_000, "bench")
BUDGETS = Budgets()
TRUNCATED = MalformedThenReferencePolicy.TRUNCATED
HARNESS_ERROR = "error: invalid JSON in tool arguments (Unterminated string); resend the call"


@pytest.fixture(scope="module")
def api() -> Iterator[SimpleNamespace]:
    pytest.importorskip("verifiers.v1")
    import verifiers.v1 as vf

    from bs4_env.integrations.verifiers_v1 import host_calls
    from bs4_env.integrations.verifiers_v1.state import BS4State, start_state

    yield SimpleNamespace(vf=vf, hc=host_calls, State=BS4State, start=start_state)


def _state(api: SimpleNamespace) -> Any:
    state = api.State()
    api.start(state, TASK)
    return state


def _request(api: SimpleNamespace, calls: list[tuple[str, str, str]], replies: list[str]) -> Any:
    """system, user, one assistant turn with ``calls`` (id, name, arguments), its replies."""
    vf = api.vf
    tool_calls = [vf.ToolCall(id=i, name=n, arguments=a) for i, n, a in calls]
    messages = [
        vf.SystemMessage(content="s"),
        vf.UserMessage(content="u"),
        vf.AssistantMessage(content="", tool_calls=tool_calls),
        *(
            vf.ToolMessage(tool_call_id=call[0], content=reply)
            for call, reply in zip(calls, replies, strict=True)
        ),
    ]
    return vf.Request(messages=messages)


async def _engine_reply(name: str, arguments: str, executor: Executor) -> tuple[str, EpisodeState]:
    """What ``bs4-env eval``'s engine answers, and its counts, for one fresh call."""
    episode = Episode(TASK, executor, BUDGETS)
    return await episode.call_tool(name, arguments), episode.state


@pytest.mark.parametrize(
    ("name", "arguments", "reaches"),
    [
        ("run_python", '{"code": "print(1)"}', True),
        ("run_python", '{"code": "print(1)", "extra": 1}', True),  # MCP drops the extra key
        ("navigate", '{"href": "/a"}', True),
        ("run_python", TRUNCATED, False),
        ("run_python", "print(1)", False),  # raw code
        ("run_python", '{"source": "print(1)"}', False),  # MCP rejects: no "code"
        ("run_python", '{"code": 1}', False),
        ("run_python", '"{\\"code\\": \\"print(1)\\"}"', False),  # double-encoded
        ("run_python", "", False),  # read as {}: no "code"
        ("bash", '{"command": "ls"}', False),
    ],
)
def test_which_calls_reach_the_tool_without_a_gate(
    api: SimpleNamespace, name: str, arguments: str, reaches: bool
) -> None:
    assert api.hc.reaches_tool(name, arguments) is reaches


async def test_harness_error_is_replaced_by_the_engine_reply_once(
    api: SimpleNamespace, executor: Executor
) -> None:
    state = _state(api)
    request = _request(api, [("c1", "run_python", TRUNCATED)], [HARNESS_ERROR])
    rewritten = await api.hc.answer_harness_errors(request, state, executor, BUDGETS)
    reply, engine_state = await _engine_reply("run_python", TRUNCATED, executor)
    assert rewritten.messages[-1].content == reply
    assert rewritten.messages[:-1] == request.messages[:-1]
    assert state.host_calls == 1 and state.host_replies == {"c1": reply}
    assert state.episode["bad_arguments"] == engine_state.bad_arguments == 1
    assert state.episode["tool_calls"] == engine_state.tool_calls == 1
    # The harness resends its own history (with its error text) on every later request.
    before = json.dumps(state.episode)
    again = await api.hc.answer_harness_errors(request, state, executor, BUDGETS)
    assert again.messages[-1].content == reply
    assert json.dumps(state.episode) == before and state.host_calls == 1


async def test_repairable_call_runs_on_the_host(api: SimpleNamespace, executor: Executor) -> None:
    """Raw code is not JSON: the pinned harness refuses it, the engine repairs and runs it."""
    state = _state(api)
    code = "print(make_soup().title is not None)"
    request = _request(api, [("c1", "run_python", code)], [HARNESS_ERROR])
    rewritten = await api.hc.answer_harness_errors(request, state, executor, BUDGETS)
    assert rewritten.messages[-1].content.startswith("exit status: 0")
    assert "True" in rewritten.messages[-1].content
    assert state.episode["soup_runs"] == 1 and state.episode["bad_arguments"] == 0


async def test_calls_the_tool_ran_are_left_alone(api: SimpleNamespace, executor: Executor) -> None:
    state = _state(api)
    calls = [("c1", "run_python", '{"code": "print(1)", "extra": 1}')]
    request = _request(api, calls, ["exit status: 0\nstdout:\n1\n"])
    assert await api.hc.answer_harness_errors(request, state, executor, BUDGETS) is None
    assert state.host_calls == 0


async def test_a_run_call_the_engine_would_repair_fails_loudly(
    api: SimpleNamespace, executor: Executor
) -> None:
    """If a harness ever ran a call that never reaches our tool, answering it would count it
    twice: the hook refuses instead of guessing."""
    request = _request(api, [("c1", "run_python", TRUNCATED)], ["exit status: 0\nstdout:\n"])
    with pytest.raises(RuntimeError, match="count it twice"):
        await api.hc.answer_harness_errors(request, _state(api), executor, BUDGETS)


async def test_turn_order_under_the_pinned_harness(
    api: SimpleNamespace, executor: Executor
) -> None:
    """Pinned difference: without a gate, a turn's bad call is answered after its valid calls
    ran (the engine runs them in order). Same replies and counts; only order-dependent state
    (which call meets an exhausted budget, which page a navigate left) can differ."""
    state = _state(api)
    state.episode["tool_calls"] = 5  # the valid call of this turn already ran on the tool server
    calls = [("c1", "run_python", TRUNCATED), ("c2", "run_python", '{"code": "print(1)"}')]
    request = _request(api, calls, [HARNESS_ERROR, "exit status: 0\nstdout:\n1\n"])
    rewritten = await api.hc.answer_harness_errors(request, state, executor, BUDGETS)
    assert rewritten.messages[-2].content.startswith("error: run_python expects JSON")
    assert rewritten.messages[-1].content == "exit status: 0\nstdout:\n1\n"
    assert state.episode["tool_calls"] == 6


async def test_gate_probe_is_answered_before_the_call_runs(
    api: SimpleNamespace, executor: Executor
) -> None:
    state = _state(api)
    probe = _request(api, [("c1", "run_python", TRUNCATED)], [""])
    rewritten = await api.hc.answer_gate_probe(probe, state, executor, BUDGETS)
    assert rewritten.messages[-1].content == state.host_replies["c1"]
    fine = _request(api, [("c2", "run_python", '{"code": "print(1)"}')], [""])
    assert await api.hc.answer_gate_probe(fine, state, executor, BUDGETS) is None
    # With a gate the harness records our reply, so later requests already carry it.
    later = _request(api, [("c1", "run_python", TRUNCATED)], [state.host_replies["c1"]])
    assert await api.hc.answer_harness_errors(later, state, executor, BUDGETS) is None
    assert state.host_calls == 1


async def test_last_turn_calls_are_settled_at_grading(
    api: SimpleNamespace, executor: Executor
) -> None:
    """The turn limit refuses the request that would carry the harness's reply to the hook;
    grading settles the call so the counts equal the engine's."""
    vf = api.vf
    state = _state(api)
    last = vf.AssistantMessage(
        content="", tool_calls=[vf.ToolCall(id="c9", name="run_python", arguments=TRUNCATED)]
    )
    trace = SimpleNamespace(assistant_messages=[last])
    await api.hc.settle_unanswered(trace, state, executor, BUDGETS)
    assert state.episode["bad_arguments"] == 1 and state.host_calls == 1
    await api.hc.settle_unanswered(trace, state, executor, BUDGETS)
    assert state.host_calls == 1
