"""The history ``bs4-env eval`` sends back carries the arguments the engine ran.

Servers such as llama.cpp and vLLM parse every earlier tool call's arguments; bare source or
truncated JSON there is an HTTP 500, which used to turn exactly the rollouts whose arguments
the engine had repaired into error rows. The scripted server plays such a strict endpoint.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bs4_env.cli.main import main
from bs4_env.episode.history import history_arguments
from bs4_env.tasks.modes import DatasetConfig, build_rows
from tests.e2e.scripted_server import ScriptedServer

ARCHETYPES = "text_by_id,attribute_value"
KEY_VAR = "SCRIPTED_ENDPOINT_KEY"
N = 4


def test_history_arguments_are_the_executed_json() -> None:
    code = {"code": "print(1)"}
    assert history_arguments('{"code": "print(1)"}', code) == '{"code": "print(1)"}'
    assert json.loads(history_arguments("print(1)", code)) == code
    assert json.loads(history_arguments("```python\nprint(1)\n```", code)) == code
    assert history_arguments('{"code": "print(', None) == "{}", "nothing ran"
    assert history_arguments('{"x": 1}', None) == "{}", "refused: nothing ran"
    assert history_arguments('{"code": 1}', None) == "{}"
    assert history_arguments("[" * 100_000, None) == "{}"


@pytest.mark.integration
def test_repaired_and_refused_arguments_do_not_break_a_strict_endpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_VAR, "not-a-secret")
    config = DatasetConfig.from_kwargs(split="bench", archetypes=ARCHETYPES, num_examples=N)
    rows = list(build_rows(config))
    keys = [(row.archetype_id, row.seed) for row in rows]
    faults = {key: ("raw-args" if i % 2 else "malformed-args") for i, key in enumerate(keys)}
    output = tmp_path / "results.json"
    args = ["eval", "--model", "reference", "--api-key-var", KEY_VAR, "--archetypes"]
    args += [ARCHETYPES, "-n", str(N), "-o", str(output), "--quiet", "--max-retries", "0"]
    with ScriptedServer(rows, faults=faults, strict_history=True) as server:
        assert main([*args, "--base-url", server.base_url]) == 0
    results = json.loads(output.read_text())
    assert results["errors"] == 0 and results["avg_reward"] == 1.0
    for row in results["rollouts"]:
        first_call = row["transcript"][2]["tool_calls"][0]["function"]["arguments"]
        if faults[(row["archetype"], row["seed"])] == "raw-args":
            assert not first_call.lstrip().startswith("{"), "the transcript keeps the raw text"
            assert row["components"]["tool_calls"] == 1.0, "repaired: it ran"
        else:
            assert row["components"]["tool_calls"] == 2.0, "refused, then a retry"
