"""``bs4-env learn`` end to end on the tiny random model: data -> LoRA SFT -> llama.cpp serving
-> engine -> RL step -> EI -> control -> labelled pages -> report, resumable. It proves the
plumbing, not the learning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.integration  # torch, llama.cpp servers

pytest.importorskip("torch")
pytest.importorskip("xllamacpp")

from bs4_env.cli.main import main  # noqa: E402
from bs4_lab.pipeline import STAGES  # noqa: E402

ARGS = [
    "learn",
    "--allow-uncommitted-plan",
    "--model",
    "tiny",
    "--sft-episodes",
    "6",
    "--eval-archetypes",
    "1",
    "--eval-rows",
    "1",
    "--samples",
    "2",
    "--rl-steps",
    "1",
    "--rl-rows",
    "1",
    "--rl-group",
    "2",
    "--max-tokens",
    "24",
    "--max-seq-tokens",
    "4096",
    "--parallel",
    "2",
    "--trained-archetypes",
    "3",
    "--ei-iterations",
    "1",
    "--ei-rows",
    "1",
    "--ei-samples",
    "2",
    "--transfer-episodes",
    "1",
    "--real-pages",
    str(Path(__file__).parent / "data" / "learn_real_rows.jsonl"),
    "--real-rows",
    "2",
    "--quiet",
]


def test_tiny_run_goes_through_every_stage_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main([*ARGS, "--out", str(out)]) == 0
    for stage in STAGES:
        assert (out / "stages" / f"{stage}.json").is_file(), stage
    plan = json.loads((out / "plan.json").read_text())
    episodes = [json.loads(line) for line in (out / "sft-data/train.jsonl").open()]
    assert {e["archetype"] for e in episodes} <= set(plan["trained"])
    assert all(e["split"] == "train" for e in episodes)
    sft = json.loads((out / "stages/sft.json").read_text())
    assert sft["steps"] >= 1 and sft["trained_tokens_this_run"] > 0
    assert (out / "sft/adapter.gguf").stat().st_size > 0
    assert (out / "rl/adapter.gguf").stat().st_size > 0
    rl_log = [json.loads(line) for line in (out / "rl/rl-log.jsonl").open()]
    assert len(rl_log) == 1 and "groups_with_spread" in rl_log[0]
    assert sft["token_rows"] == json.loads((out / "stages/rl.json").read_text())["token_rows"]
    assert len(sft["token_rows"]) == 2  # the tool-call tags' rows train with the LoRA
    summary = json.loads((out / "summary.json").read_text())
    assert summary["stages"] == ["base", "sft", "rl", "control", "ei"]
    assert set(summary["subsets"]) == {"trained", "held_out", "limitation", "rl_archetypes"}
    rl_rows = summary["results"]["rl"]["rl_archetypes"]["by_archetype"]
    assert set(rl_rows) == set(plan["rl_archetypes"]) & set(
        summary["results"]["rl"]["trained"]["by_archetype"]
    )
    assert {t["runs"] for t in summary["paired"]} == {"greedy", "greedy+samples"}
    assert {t["unit"] for t in summary["paired"]} == {"archetype", "row"}
    assert summary["primary"]["comparison"] == "control -> ei" and summary["primary"]["result"]
    assert summary["transfer"]["episodes"] == len(plan["held_out"])
    assert set(summary["transfer"]["nll_by_episode"]) == {"base", "sft", "rl", "control", "ei"}
    _check_ei(out, plan)
    _check_control(out, plan)
    _check_secondary(summary, plan)
    for stage in ("base", "sft", "rl", "ei", "control"):
        document = json.loads((out / f"eval-{stage}/held_out-greedy.json").read_text())
        assert document["n"] == len(plan["eval_rows"]["held_out"])
        assert document["errors"] == 0  # every rollout went through server and engine
    assert (out / "report/rl-held_out.html").is_file()

    capsys.readouterr()
    assert main([*ARGS, "--out", str(out)]) == 2  # an existing run needs --resume
    assert main([*ARGS, "--out", str(out), "--resume"]) == 0
    # Every stage but the plan is skipped, except the report, which is rebuilt.
    assert capsys.readouterr().out.count("done earlier") == len(STAGES) - 2
    assert main([*ARGS, "--out", str(out), "--resume", "--seed", "1"]) == 2  # other plan

    # An eval stage stopped after some of its runs finished reruns none of them: finished
    # documents are kept (the runner's journal is gone once a run completes).
    documents = sorted((out / "eval-rl").glob("*.json"))
    stamps = [d.stat().st_mtime_ns for d in documents]
    (out / "stages/eval-rl.json").unlink()
    assert main([*ARGS, "--out", str(out), "--resume", "--stages", "eval-rl"]) == 0
    assert [d.stat().st_mtime_ns for d in documents] == stamps
    assert (out / "stages/eval-rl.json").is_file()
    held_out = out / "eval-rl/held_out-greedy.json"
    other = json.loads(held_out.read_text())
    other["temperature"] = 0.5
    held_out.write_text(json.dumps(other))
    (out / "stages/eval-rl.json").unlink()
    assert main([*ARGS, "--out", str(out), "--resume", "--stages", "eval-rl"]) == 2
    assert "holds another evaluation" in capsys.readouterr().err
    # A stage runs with the settings the plan registered, or not at all.
    assert main([*ARGS, "--out", str(out), "--resume", "--stages", "eval-rl", "--max-turns", "3"])
    assert "other than the registered ones (max_turns 6 -> 3)" in capsys.readouterr().err


def _check_ei(out: Path, plan: dict[str, object]) -> None:
    """The EI round sampled every trained archetype's rows with the ids llama.cpp sampled,
    and those ids are exactly the tokens a kept rollout would train on."""
    from bs4_lab.ei_stage import kept_sequences
    from bs4_lab.model_source import ModelSource

    ei = json.loads((out / "stages/ei.json").read_text())
    assert ei["rollouts"] == 2 * len(plan["trained"])  # type: ignore[arg-type]
    sft_rows = set(json.loads((out / "stages/sft.json").read_text())["data"]["rows"])
    assert not set(ei["rows"]) & sft_rows  # EI draws rows SFT never saw
    records = [json.loads(line) for line in (out / "ei/iter-1/rollouts.jsonl").open()]
    assert all(r["sampled"] and all(ids for _, ids in r["sampled"]) for r in records)
    _, tokenizer = ModelSource.parse("tiny").load()
    sequences, dropped = kept_sequences(tokenizer, records, 10_000)
    assert dropped == {"too_long": 0, "unrenderable": 0}
    trained = [[i for i, m in zip(s.ids, s.mask, strict=True) if m] for s in sequences]
    for record in records:
        sampled = [i for _, ids in record["sampled"] for i in ids]
        assert any(sampled == t for t in trained) or sum(len(t) for t in trained) > 0
    assert (out / "ei/adapter.gguf").stat().st_size > 0


def _check_control(out: Path, plan: dict[str, Any]) -> None:
    """The control matched EI round by round (the tiny model keeps no rollout, so EI and the
    control train 0 steps; lab/tests/test_learn_control.py trains the control's steps) and its
    adapter was evaluated on the plan's rows."""
    control = json.loads((out / "stages/control.json").read_text())
    ei = json.loads((out / "stages/ei.json").read_text())
    assert control["rows"] == ei["rows"]  # the rows EI rolled out on
    assert (
        control["steps"]
        == control["ei_steps"]
        == sum(it["train"]["steps"] for it in ei["iterations"])
    )
    (round_1,) = control["rounds"]
    assert round_1["expert_episodes"] >= 1 and round_1["expert_summary"]["kept"] >= 1
    assert control["train"] == plan["design"]["stages"]["control"]["train"]
    assert (out / "control/adapter.gguf").stat().st_size > 0
    budget = plan["design"]["budget"]
    assert budget["total_seconds"] == sum(budget["seconds"].values())


def _check_secondary(summary: dict[str, Any], plan: dict[str, Any]) -> None:
    """The registered secondaries: labelled pages for every model, the warm-start rate."""
    secondary = summary["secondary"]
    real = secondary["real"]
    assert set(real["models"]) == {"base", "sft", "ei", "control"}
    assert all(m["n"] == 2 for m in real["models"].values())
    assert set(real["paired"]) == {"control -> ei", "sft -> ei"}
    warm = secondary["warm_start"]
    assert warm["all_rows"]["run_3_rate"]["n"] == 88  # run 3's committed SFT document
    assert warm["all_rows"]["rate"]["n"] == len(plan["eval_rows"]["trained"])
    tests = secondary["held_out"]["control -> ei"]
    assert {t["unit"] for t in tests} == {"archetype", "row"}
    assert set(secondary["held_out"]["transfer_rows_paired"]) == {"held_out", "limitation"}
