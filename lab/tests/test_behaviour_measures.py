"""The budget-refusal measure (did the model answer when told its tool budget was spent?) on
made-up transcripts and on the committed eval documents of runs 3 and 4 (real engine
transcripts; tests/test_engine.py checks the engine sends these texts), and
``scripts/behaviour_table.py`` and ``scripts/ei_refusals.py`` on committed records and on bad
input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bs4_env.episode.engine import OUTPUT_BUDGET_SPENT, TOOL_BUDGET_SPENT
from bs4_lab.real_measures import behaviour, budget_heeded, met_budget_refusal
from tests.scripts_import import load_script

ROOT = Path(__file__).resolve().parents[2]
RUN_3 = ROOT / "outputs" / "learn-0p5b-run3-ei"
RUN_4 = ROOT / "outputs" / "learn-0p5b-run4"


def _call(call_id: str) -> dict[str, Any]:
    return {"role": "assistant", "content": "", "tool_calls": [
        {"id": call_id, "type": "function",
         "function": {"name": "run_python", "arguments": '{"code": "print(1)"}'}}]}  # fmt: skip


def _reply(call_id: str, content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


REFUSAL = TOOL_BUDGET_SPENT.format(limit=3)
ANSWER = {"role": "assistant", "content": '{"status": "ok", "answer": 1}'}


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        ([_reply("c", REFUSAL), ANSWER], True),
        ([_reply("c", OUTPUT_BUDGET_SPENT), ANSWER], True),
        ([_reply("c", REFUSAL), _call("d"), _reply("d", REFUSAL), ANSWER], False),
        ([_reply("c", REFUSAL)], None),  # the turn limit ended it: no chance to answer
        ([_reply("c", "exit status: 0\n1"), ANSWER], None),  # no refusal arrived
    ],
)
def test_budget_heeded_reads_the_reply_after_the_first_refusal(
    tail: list[dict[str, Any]], expected: bool | None
) -> None:
    record = {"transcript": [{"role": "user", "content": "q"}, _call("c"), *tail]}
    assert budget_heeded(record) is expected
    # Met and unanswered (the turn limit ended it) still counts as met.
    assert met_budget_refusal(record) is (tail[0]["content"] != "exit status: 0\n1")


def _rollouts(path: Path) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads(path.read_text())["rollouts"]
    return records


@pytest.mark.parametrize(
    ("document", "heeded", "refused"),
    [
        # Run 3's SFT never answered after the refusal (52 rows ended without an answer);
        # its EI always did; run 4's recovery warm start answered on 87 of 89.
        (RUN_3 / "eval-sft" / "trained-greedy.json", 0, 51),
        (RUN_3 / "eval-ei" / "trained-greedy.json", 26, 26),
        (RUN_4 / "eval-sft" / "trained-greedy.json", 87, 89),
    ],
)
def test_committed_runs_give_their_figures(document: Path, heeded: int, refused: int) -> None:
    figure = behaviour(_rollouts(document))["budget_heeded"]
    assert (figure["k"], figure["n"]) == (heeded, refused)


def test_table_has_a_row_per_document(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script("behaviour_table")
    code = script.main([f"run4-sft={RUN_4 / 'eval-sft' / 'trained-greedy.json'}",
                        str(RUN_3 / "eval-sft" / "trained-greedy.json")])  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and len(lines) == 4
    assert lines[2].startswith("| run4-sft | 260 | 0.180 [")
    assert lines[2].endswith("| 87/89 (97.8%, 92.2%-99.4%) |")
    assert lines[3].startswith("| eval-sft/trained-greedy | 88 | 0.307 [")


@pytest.mark.parametrize(
    "content",
    ["not json", '{"rollouts": []}', "[1, 2]", '{"rollouts": [1]}', '{"rollouts": [{"x": 1}]}'],
)
def test_bad_documents_get_a_message(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    assert load_script("behaviour_table").main([str(bad)]) == 2
    assert "bad.json" in capsys.readouterr().err


def test_first_replies_name_the_failure(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/learning-run4.md: the control's first program raised AttributeError on 96 rows; 52
    of EI's first calls were refused as JSON cut off (the reply cap)."""
    control = f"control={RUN_4 / 'eval-control' / 'trained-greedy.json'}"
    ei = f"ei={RUN_4 / 'eval-ei' / 'trained-greedy.json'}"
    code = load_script("behaviour_table").main(["--first-replies", "3", control, ei])
    out = capsys.readouterr().out
    assert code == 0
    assert "| control | AttributeError | 96 |" in out and "| control | ran | 83 |" in out
    cut = "refused: the JSON is not closed with }, so the value may be cut off"
    assert f"| ei | {cut} | 52 |" in out


def test_ei_rounds_never_kept_a_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/learning-run4.md: run 4's EI rounds met the refusal in 173 and 201 of 288 rollouts,
    3 and 5 of those scored, 149 and 95 answered after it, and none of the 32 + 30 kept did."""
    journals = [RUN_4 / "ei" / f"iter-{n}" / "rollouts.jsonl" for n in (1, 2)]
    assert load_script("ei_refusals").main([str(j) for j in journals]) == 0
    figures = list(json.loads(capsys.readouterr().out).values())
    keys = ("met_refusal", "met_refusal_scored", "answered_after_refusal", "kept",
            "kept_with_refusal")  # fmt: skip
    assert [tuple(f[k] for k in keys) for f in figures] == [(173, 3, 149, 32, 0),
                                                            (201, 5, 95, 30, 0)]  # fmt: skip


@pytest.mark.parametrize("line", ["not json", "[1]", '{"history": []}', '{"history": 1}'])
def test_bad_journals_get_a_message(
    tmp_path: Path, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "rollouts.jsonl"
    bad.write_text(line + "\n")
    assert load_script("ei_refusals").main([str(bad)]) == 2
    assert "rollouts.jsonl" in capsys.readouterr().err
