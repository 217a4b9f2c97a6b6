"""``bs4-env eval`` survives a bad endpoint: error rows, a summary of them, and resume.

A real OpenAI client (with its retries) talks to the loopback scripted server, which fails
chosen tasks the way real servers do: HTTP 500s, timeouts, a body that is no completion,
tool-call arguments that are not JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bs4_env.cli.main import main
from bs4_env.evaluation.openai_policy import FatalEndpointError
from bs4_env.evaluation.report import format_table, summarize
from bs4_env.evaluation.runner import evaluate, partial_path
from bs4_env.evaluation.scripted import ReferencePolicy
from bs4_env.evaluation.turns import AssistantTurn, Message, Policy
from bs4_env.sandbox.base import ExecRequest, ExecResult, Executor
from bs4_env.tasks.model import Task
from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import Registry
from bs4_env.tasks.splits import Row
from tests.e2e.scripted_server import TOOL_JSON_ERROR, ScriptedServer

ARCHETYPES = "text_by_id,attribute_value"
KEY_VAR = "SCRIPTED_ENDPOINT_KEY"
N = 6


def _rows() -> list[Row]:
    config = DatasetConfig.from_kwargs(split="bench", archetypes=ARCHETYPES, num_examples=N)
    return list(build_rows(config))


def _args(server: ScriptedServer, output: Path) -> list[str]:
    return [
        "eval",
        "--model",
        "reference",
        "--base-url",
        server.base_url,
        "--api-key-var",
        KEY_VAR,
        "--archetypes",
        ARCHETYPES,
        "-n",
        str(N),
        "-o",
        str(output),
        "--quiet",
        "--max-retries",
        "1",
        "--request-timeout",
        "2",
    ]


@pytest.mark.integration
def test_endpoint_errors_become_error_rows_and_resume_retries_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(KEY_VAR, "not-a-secret")
    rows = _rows()
    keys = [(row.archetype_id, row.seed) for row in rows]
    faults = {
        keys[0]: "http500",
        keys[1]: "timeout",
        keys[2]: "garbage",
        keys[3]: "flaky500",
        keys[4]: "malformed-args",
    }
    output = tmp_path / "results.json"
    with ScriptedServer(rows, faults=faults) as server:
        assert main(_args(server, output)) == 3, "finished, with error rows"
        printed = capsys.readouterr()
        results = json.loads(output.read_text())
        by_key = {(r["archetype"], r["seed"]): r for r in results["rollouts"]}
        assert results["n"] == N and results["errors"] == 3 and results["completed"] == N - 3
        assert TOOL_JSON_ERROR in by_key[keys[0]]["error"]
        assert "Timeout" in by_key[keys[1]]["error"] or "timed out" in by_key[keys[1]]["error"]
        assert by_key[keys[2]]["error"]
        for key in keys[:3]:
            row = by_key[key]
            assert row["reward"] is None and row["explanation"].startswith("rollout failed")
            assert row["transcript"][0]["role"] == "system", "the transcript so far is kept"
        for key in keys[3:]:
            assert by_key[key]["error"] is None and by_key[key]["reward"] == 1.0, key
        assert by_key[keys[4]]["components"]["tool_calls"] == 2.0, "bad args, then a retry"
        assert results["avg_reward"] == 1.0, "averages are over completed rollouts"
        assert results["avg_reward_errors_as_zero"] == 0.5
        assert "errors: 3 of 6" in printed.out
        assert partial_path(output).exists(), "kept so that a rerun retries the error rows"

        before = dict(server.requests_by_task)
        server.faults.clear()
        assert main(_args(server, output)) == 0
        resumed = json.loads(output.read_text())
        assert resumed["n"] == N and resumed["errors"] == 0 and resumed["avg_reward"] == 1.0
        retried = {key for key, count in server.requests_by_task.items() if count > before[key]}
        assert retried == set(keys[:3]), "only the error rows ran again"
        assert not partial_path(output).exists()


def test_summary_counts_error_rows_apart() -> None:
    ok = {"archetype": "a", "seed": 1, "difficulty": "easy", "category": "core"}
    records = [
        {**ok, "seed": 1, "reward": 1.0, "prompt_tokens": 1, "completion_tokens": 1},
        {**ok, "seed": 2, "reward": 0.0, "prompt_tokens": 1, "completion_tokens": 1},
        {**ok, "seed": 3, "reward": None, "error": "boom", "prompt_tokens": 0},
    ]
    records[-1]["completion_tokens"] = 0
    results = summarize(records, {})
    assert (results["n"], results["completed"], results["errors"]) == (3, 2, 1)
    assert results["avg_reward"] == 0.5 and results["avg_reward_errors_as_zero"] == 0.3333
    assert results["by_archetype"]["a"]["errors"] == 1
    assert results["pass_rate"] == 0.5


class _FailingSandbox(Executor):
    """The real sandbox, except that programs marked ``# crash-sandbox`` make it raise."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner

    async def run(self, request: ExecRequest) -> ExecResult:
        if "# crash-sandbox" in request.code:
            raise OSError("sandbox worker vanished")
        return await self.inner.run(request)


class _CrashAfterOneRun:
    """Runs the reference program once, then raises on its next turn."""

    def __init__(self, inner: Policy, error: Exception) -> None:
        self.inner, self.error = inner, error

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn:
        if any(message["role"] == "tool" for message in messages):
            raise self.error
        return await self.inner.next_turn(messages, tools)


async def test_a_rollout_that_raises_anywhere_is_an_error_row(
    registry: Registry, executor: Executor, tmp_path: Path
) -> None:
    """The policy, the sandbox or building the task raises: one error row each, run goes on."""
    seeds = [100_000_000 + index for index in range(5)]
    rows = [Row("text_by_id", seed, "eval") for seed in seeds] + [Row("no_such", 1, "eval")]

    def policy_for(task: Task) -> Policy:
        program = registry.reference_solution(task.archetype_id)
        if task.seed == seeds[0]:
            return _CrashAfterOneRun(ReferencePolicy(lambda _m: program), RuntimeError("boom"))
        if task.seed == seeds[1]:
            return ReferencePolicy(lambda _m: program + "\n# crash-sandbox")
        return ReferencePolicy(lambda _m: program)

    output = tmp_path / "r.json"
    sandbox = _FailingSandbox(executor)
    results = await evaluate(rows, policy_for, sandbox, output, {}, progress=False)
    by_seed = {(r["archetype"], r["seed"]): r for r in results["rollouts"]}
    assert (results["n"], results["errors"], results["completed"]) == (6, 3, 3)
    assert by_seed[("text_by_id", seeds[0])]["error"] == "RuntimeError: boom"
    assert by_seed[("text_by_id", seeds[0])]["transcript"][-1]["role"] == "tool"
    assert "sandbox worker vanished" in by_seed[("text_by_id", seeds[1])]["error"]
    assert "no_such" in by_seed[("no_such", 1)]["error"]
    assert all(by_seed[("text_by_id", seed)]["reward"] == 1.0 for seed in seeds[2:])
    assert "errors: 3 of 6" in format_table(results)

    fatal = FatalEndpointError("AuthenticationError: bad key")

    def refused(task: Task) -> Policy:
        return _CrashAfterOneRun(policy_for(task), fatal)

    with pytest.raises(FatalEndpointError):
        await evaluate(rows[2:3], refused, sandbox, tmp_path / "f.json", {}, progress=False)
