"""One request format: ``bs4-env eval`` and ``vf-eval`` send the model the same requests.

Both run the same bench rows against the scripted server, which records every request body.
Apart from what only the transport decides (see ``request_bodies``), the bodies must be equal:
the same tools in the same order with the same schemas (``openai_tools()``, which is also what
MCP advertises), the same messages, the same sampling. The one known difference is pinned: a
call whose arguments were refused goes back in ``bs4-env eval``'s history as what the engine
ran (``{}``), while the verifiers harness resends the model's raw text (verifiers lets a
request hook rewrite tool and user messages only, never an assistant's tool call).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from request_bodies import diff
from scripted_server import ScriptedServer
from vf_run import BIN, run_vf_eval, vf_eval_command

from bs4_env.episode.tool_schema import openai_tools
from bs4_env.evaluation.scripted import MalformedThenReferencePolicy
from bs4_env.tasks.modes import DatasetConfig, build_rows

pytestmark = pytest.mark.integration

PER_POLICY = 2
ROWS = list(build_rows(DatasetConfig(split="bench", num_examples=2 * PER_POLICY)))
# The first rows play the run's model (reference), the others malformed (the scripted server's
# per-row policies): each path runs once for both policies, as process start-up is most of a run.
POLICY = {
    (row.archetype_id, row.seed): "reference" if i < PER_POLICY else "malformed"
    for i, row in enumerate(ROWS)
}
MAX_TOKENS, TEMPERATURE = 1024, 0.0
KEY_VAR = "BS4ENV_FORMAT_KEY"


def _bs4_env_eval(server: ScriptedServer, policy: str, out: Path) -> None:
    command = [
        str(BIN / "bs4-env"), "eval", "--model", policy, "--base-url", server.base_url,
        "--api-key-var", KEY_VAR, "--split", "bench", "--num", str(len(ROWS)),
        "--max-tokens", str(MAX_TOKENS), "--temperature", str(TEMPERATURE),
        "--concurrency", "1", "--output", str(out / "eval.json"), "--quiet", "--no-resume",
    ]  # fmt: skip
    env = {**os.environ, KEY_VAR: "scripted"}
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-4000:]


def _vf_eval(server: ScriptedServer, policy: str, out: Path) -> None:
    taskset: dict[str, str | int] = {"split": "bench", "num-examples": len(ROWS), "pool-size": 2}
    command = vf_eval_command(policy, server.base_url, out, policy, len(ROWS), 1, taskset)
    command += [
        "--sampling.temperature",
        str(TEMPERATURE),
        "--sampling.max-tokens",
        str(MAX_TOKENS),
    ]
    run = run_vf_eval(command, out, policy)
    assert run.returncode == 0, run.output[-4000:]
    assert len(run.traces) == len(ROWS), run.output[-4000:]


@pytest.fixture(scope="module")
def bodies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Request bodies of both paths, per policy (split by the row each conversation plays)."""
    assigned = {key: policy for key, policy in POLICY.items() if policy != "reference"}
    out: dict[str, dict[str, list[dict[str, Any]]]] = {"reference": {}, "malformed": {}}
    with ScriptedServer(ROWS, policies=assigned) as server:
        _bs4_env_eval(server, "reference", tmp_path_factory.mktemp("eval"))
        recorded = {"bs4-env eval": server.bodies}
        server.bodies = []
        _vf_eval(server, "reference", tmp_path_factory.mktemp("vf"))
        recorded["vf-eval"] = server.bodies
        for path, path_bodies in recorded.items():
            for policy in out:
                out[policy][path] = []
            for body in path_bodies:
                task = server.task_of(body["messages"])
                out[POLICY[(task.archetype_id, task.seed)]][path].append(body)
    return out


def test_every_request_carries_the_engine_tools(
    bodies: dict[str, dict[str, list[dict[str, Any]]]],
) -> None:
    for policy, paths in bodies.items():
        for path, recorded in paths.items():
            assert recorded, (policy, path)
            for body in recorded:
                assert body["tools"] == openai_tools(), (policy, path)


def test_reference_requests_are_identical(
    bodies: dict[str, dict[str, list[dict[str, Any]]]],
) -> None:
    recorded = bodies["reference"]
    assert len(recorded["bs4-env eval"]) == len(recorded["vf-eval"]) == 2 * PER_POLICY
    assert diff(recorded["bs4-env eval"], recorded["vf-eval"]) == []


def test_malformed_requests_differ_only_in_the_refused_arguments(
    bodies: dict[str, dict[str, list[dict[str, Any]]]],
) -> None:
    recorded = bodies["malformed"]
    assert len(recorded["bs4-env eval"]) == len(recorded["vf-eval"]) == 3 * PER_POLICY
    raw = json.dumps(MalformedThenReferencePolicy.TRUNCATED)[:120]
    path = "body.messages[2].tool_calls[0].function.arguments"
    expected = sorted(
        [(4, path, json.dumps("{}"), raw), (6, path, json.dumps("{}"), raw)] * PER_POLICY
    )
    assert diff(recorded["bs4-env eval"], recorded["vf-eval"]) == expected


def test_mcp_advertises_the_engine_schemas() -> None:
    """What the toolset's MCP server lists is exactly ``openai_tools()`` (verifiers 0.4)."""
    pytest.importorskip("verifiers.v1")
    from mcp.server.mcpserver import MCPServer

    from bs4_env.integrations.verifiers_v1.config import BS4ToolsetConfig
    from bs4_env.integrations.verifiers_v1.toolset import BS4Toolset

    server = MCPServer("")
    BS4Toolset(BS4ToolsetConfig()).register(server)
    listed = asyncio.run(server.list_tools())
    advertised = [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description or "",
                "parameters": tool.input_schema,
            },
        }
        for tool in listed
    ]
    assert advertised == openai_tools()
