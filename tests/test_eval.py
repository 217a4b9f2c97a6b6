"""``bs4-env eval``: the reference policy over the bench prefix, results JSON, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bs4_env.cli.main import main
from bs4_env.evaluation.runner import partial_path
from bs4_env.tasks.registry import Registry


@pytest.mark.slow
def test_reference_eval_writes_complete_results(tmp_path: Path, registry: Registry) -> None:
    output = tmp_path / "results.json"
    n = len(registry)
    assert main(["eval", "-n", str(n), "-o", str(output), "--quiet"]) == 0
    results = json.loads(output.read_text())
    for key in (
        "model",
        "split",
        "mode",
        "n",
        "avg_reward",
        "pass_rate",
        "perfect_rate",
        "by_archetype",
        "by_difficulty",
        "by_category",
        "usage",
        "rollouts",
    ):
        assert key in results
    assert results["n"] == n and results["pass_rate"] == 1.0
    assert set(results["by_archetype"]) == set(registry.ids()), "a bench prefix covers everything"
    record = results["rollouts"][0]
    assert record["transcript"][0]["role"] == "system" and record["explanation"]
    assert not partial_path(output).exists()


def test_resume_skips_finished_rollouts(tmp_path: Path) -> None:
    output = tmp_path / "r.json"
    args = ["eval", "-n", "3", "--archetypes", "text_by_id", "-o", str(output), "--quiet"]
    assert main(args) == 0
    first = json.loads(output.read_text())["rollouts"]
    fake = dict(first[0], reward=0.25, explanation="from the interrupted run")
    partial_path(output).write_text(json.dumps(fake) + "\n{broken line")
    assert main(args) == 0
    resumed = json.loads(output.read_text())
    assert resumed["n"] == 3
    assert [r["explanation"] for r in resumed["rollouts"]].count("from the interrupted run") == 1


def test_eval_without_key_for_model_explains(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for var in ("OPENROUTER_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    assert main(["eval", "--model", "x/y", "-n", "1"]) == 2
    assert "OPENROUTER_API_KEY" in capsys.readouterr().err


def test_eval_with_llm_module_is_the_same_command(tmp_path: Path) -> None:
    from bs4_env.scripts.eval_with_llm import main as module_main

    output = tmp_path / "m.json"
    assert (
        module_main(["--num", "2", "--archetypes", "text_by_id", "-o", str(output), "--quiet"]) == 0
    )
    assert json.loads(output.read_text())["perfect_rate"] == 1.0


def test_max_output_bytes_reaches_the_sandbox(tmp_path: Path) -> None:
    """``--max-output-bytes`` caps what run_python returns (here below the reference's output)."""
    output = tmp_path / "capped.json"
    args = ["eval", "-n", "1", "--archetypes", "table_dicts_by_header", "--quiet"]
    assert main([*args, "--max-output-bytes", "300", "-o", str(output)]) == 0
    results = json.loads(output.read_text())
    assert results["max_output_bytes"] == 300
    record = results["rollouts"][0]
    tool_reply = next(m["content"] for m in record["transcript"] if m["role"] == "tool")
    assert "bytes truncated]" in tool_reply
    assert record["reward"] == 0.0, "the cut JSON is no answer"
    uncapped = tmp_path / "uncapped.json"
    assert main([*args, "-o", str(uncapped)]) == 0
    assert json.loads(uncapped.read_text())["rollouts"][0]["reward"] == 1.0


def test_max_output_bytes_below_the_minimum_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "-n", "1", "--max-output-bytes", "10", "--quiet"]) == 2
    assert "max_output_bytes=10" in capsys.readouterr().err
