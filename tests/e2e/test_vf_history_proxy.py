"""The v1 harness's history proxy (``verifiers_v1/history_proxy.py``) against a local upstream.

A chat request whose history holds raw source or truncated JSON reaches the upstream with
the arguments the engine ran (or ``{}``), a valid call keeps its bytes, headers pass, and a
streamed response comes back chunk by chunk.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from aiohttp import ClientSession, web
from scripted_server import ScriptedServer
from vf_run import VfRun, run_vf_eval, total_reward, vf_eval_command

from bs4_env.evaluation.scripted import MalformedThenReferencePolicy
from bs4_env.integrations.verifiers_v1.history_proxy import history_proxy, rewritten_body
from bs4_env.tasks.modes import DatasetConfig, build_rows

pytestmark = pytest.mark.integration

VALID = '{ "code": "print(1)" }'  # whitespace the engine would not write: kept as sent


def _body(*arguments: str) -> dict[str, Any]:
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": "run_python", "arguments": a}}
        for i, a in enumerate(arguments)
    ]
    return {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": calls},
            *({"role": "tool", "tool_call_id": c["id"], "content": "ok"} for c in calls),
        ],
    }


def _arguments(body: dict[str, Any]) -> list[str]:
    return [c["function"]["arguments"] for c in body["messages"][1]["tool_calls"]]


def test_rewritten_body_sends_what_the_engine_ran() -> None:
    truncated = MalformedThenReferencePolicy.TRUNCATED
    body = json.loads(rewritten_body(json.dumps(_body("print(2)", truncated, VALID)).encode()))
    assert _arguments(body) == ['{"code": "print(2)"}', "{}", VALID]
    untouched = json.dumps(_body(VALID)).encode()
    assert rewritten_body(untouched) is untouched
    assert rewritten_body(b"not json") == b"not json"


def test_the_proxy_forwards_the_rewritten_request_and_streams_the_reply() -> None:
    seen: list[tuple[dict[str, Any], str, str]] = []

    async def upstream(request: web.Request) -> web.StreamResponse:
        seen.append((await request.json(), request.path, request.headers["Authorization"]))
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        for part in (b"data: 1\n\n", b"data: [DONE]\n\n"):
            await response.write(part)
        await response.write_eof()
        return response

    async def play() -> bytes:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", upstream)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        try:
            async with history_proxy(f"http://127.0.0.1:{port}/v1") as endpoint:
                assert endpoint.endswith("/v1") and f":{port}/" not in endpoint
                async with (
                    ClientSession() as client,
                    client.post(
                        f"{endpoint}/chat/completions",
                        json=_body("print(3)"),
                        headers={"Authorization": "Bearer s"},
                    ) as reply,
                ):
                    assert reply.status == 200
                    return await reply.read()
        finally:
            await runner.cleanup()

    assert asyncio.run(play()) == b"data: 1\n\ndata: [DONE]\n\n"
    [(body, path, auth)] = seen
    assert _arguments(body) == ['{"code": "print(3)"}'] and path == "/v1/chat/completions"
    assert auth == "Bearer s"


STRICT_POLICIES = ("malformed", "rawargs")
# Two rows per policy, each row playing one policy (the scripted server picks it per row): one
# vf-eval per harness covers both policies, so each run's process start-up is paid once.
STRICT_ROWS = build_rows(DatasetConfig(split="bench", archetypes=("text_by_id",)))[:4]
STRICT_ASSIGNED = {
    (row.archetype_id, row.seed): STRICT_POLICIES[i % len(STRICT_POLICIES)]
    for i, row in enumerate(STRICT_ROWS)
}
HARNESSES = ("beautiful-soup-env", "null")


@pytest.fixture(scope="module")
def strict_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VfRun]:
    """vf-eval 0.4 over ``STRICT_ROWS`` against a strict endpoint, once per harness (both at
    once: each run is mostly process start-up)."""
    out = tmp_path_factory.mktemp("strict")
    taskset = {"split": "bench", "archetypes": "text_by_id", "num-examples": len(STRICT_ROWS),
               "executor": "local", "pool-size": 2}  # fmt: skip
    with ScriptedServer(STRICT_ROWS, policies=STRICT_ASSIGNED, strict_history=True) as server:

        def run(harness: str) -> VfRun:
            command = vf_eval_command(
                STRICT_POLICIES[0], server.base_url, out, harness, len(STRICT_ROWS), 2, taskset,
                harness,
            )  # fmt: skip
            return run_vf_eval(command, out, harness)

        with ThreadPoolExecutor(max_workers=len(HARNESSES)) as pool:
            return dict(zip(HARNESSES, pool.map(run, HARNESSES), strict=True))


def _played(run: VfRun, policy: str) -> list[dict[str, Any]]:
    """The run's traces of the rows that ``policy`` played."""
    keys = [(t["task"]["data"]["archetype"], t["task"]["data"]["seed"]) for t in run.traces]
    return [t for t, key in zip(run.traces, keys, strict=True) if STRICT_ASSIGNED[key] == policy]


@pytest.mark.parametrize("policy", STRICT_POLICIES)
def test_vf_eval_on_a_strict_endpoint_scores_every_row_with_the_package_harness(
    policy: str, strict_runs: dict[str, VfRun]
) -> None:
    """vf-eval 0.4 against an endpoint that refuses non-JSON history arguments (HTTP 500, as
    llama.cpp and vLLM do): the package's harness scores every row; verifiers' ``null``
    harness, which resends the raw text, ends the same rows in errors (the control)."""
    rows = [key for key, assigned in STRICT_ASSIGNED.items() if assigned == policy]
    assert len(rows) == 2
    ours, null = strict_runs["beautiful-soup-env"], strict_runs["null"]
    assert ours.returncode == 0, ours.output[-4000:]
    assert len(ours.traces) == len(STRICT_ROWS), ours.output[-4000:]
    traces = _played(ours, policy)
    assert len(traces) == len(rows), ours.output[-4000:]
    for trace in traces:
        assert trace["ok"], trace["errors"]
        assert total_reward(trace) > 0.5, trace["rewards"]
    controls = _played(null, policy)
    assert len(controls) == len(rows), null.output[-4000:]
    assert not any(trace["ok"] for trace in controls), null.output[-4000:]
