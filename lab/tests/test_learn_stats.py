"""Stage comparison statistics (bs4_lab.stats, bs4_lab.compare): fast, no model."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from bs4_env.evaluation.report import rollout_record, summarize
from bs4_env.evaluation.rollout import Rollout
from bs4_env.grading.rubric import Score
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for
from bs4_lab.compare import (
    CompareError,
    compare_stages,
    records_of,
    spread_rows,
    uses_tools,
    well_formed,
)
from bs4_lab.compare_tables import markdown_tables
from bs4_lab.stats import mean_interval, paired_test, proportion

OK_FINAL = '{"status": "ok", "answer": ["a", "b"]}'
TOOL_CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "run_python", "arguments": '{"code": "print(1)"}'},
}


def record(
    archetype: str,
    seed: int,
    reward: float | None,
    *,
    final: str = OK_FINAL,
    tools: bool = True,
) -> dict[str, Any]:
    """A record with the keys of rollout_record (checked against it below); None = error row."""
    transcript: list[dict[str, Any]] = [{"role": "user", "content": "extract"}]
    if tools:
        transcript.append({"role": "assistant", "content": "", "tool_calls": [TOOL_CALL]})
        transcript.append({"role": "tool", "tool_call_id": "call_1", "content": "1"})
    transcript.append({"role": "assistant", "content": final})
    return {
        "archetype": archetype,
        "seed": seed,
        "split": "eval",
        "difficulty": "easy",
        "category": "tables",
        "solvable": True,
        "reward": reward,
        "components": {} if reward is None else {"format_ok": 1.0},
        "explanation": "",
        "final": "" if reward is None else final,
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "transcript": transcript,
        "timeout_s": None if reward is None else 10.0,
        "error": "RuntimeError: boom" if reward is None else None,
    }


def stage(rewards: Mapping[tuple[str, int], float | None]) -> list[dict[str, Any]]:
    return [record(a, s, r) for (a, s), r in rewards.items()]


ROWS = [("alpha", 1), ("alpha", 2), ("beta", 1), ("beta", 2)]


# --- stats -----------------------------------------------------------------------------------


def test_mean_interval_contains_the_mean_and_shrinks_with_n() -> None:
    widths = []
    for copies in (2, 8, 32):
        result = mean_interval([0.0, 1.0, 0.5, 1.0] * copies)
        assert result.low is not None and result.high is not None
        assert result.mean == pytest.approx(0.625)
        assert result.low < result.mean < result.high
        widths.append(result.high - result.low)
    assert widths[0] > widths[1] > widths[2]


def test_mean_interval_degenerate_samples_do_not_crash() -> None:
    single = mean_interval([0.7])
    assert (single.n, single.mean, single.low, single.high) == (1, 0.7, None, None)
    assert single.note and "n=1" in single.note
    constant = mean_interval([0.5, 0.5, 0.5])
    assert constant.low == constant.high == constant.mean == 0.5
    assert constant.note and "equal" in constant.note


def test_mean_interval_is_clipped_to_bounds_and_refuses_bad_input() -> None:
    clipped = mean_interval([1.0, 1.0, 0.0], bounds=(-0.5, 1.0))
    assert clipped.high == 1.0 and clipped.low is not None and clipped.low >= -0.5
    with pytest.raises(ValueError, match="no values"):
        mean_interval([])
    with pytest.raises(ValueError, match="finite"):
        mean_interval([1.0, float("nan")])
    with pytest.raises(ValueError, match="outside bounds"):
        mean_interval([2.0, 0.0], bounds=(-0.5, 1.0))


def test_wilson_on_none_and_all() -> None:
    none = proportion(0, 20)
    assert none.rate == 0.0 and none.low == 0.0 and 0.0 < none.high < 0.25
    every = proportion(20, 20)
    assert every.rate == 1.0 and every.high == 1.0 and 0.75 < every.low < 1.0
    half = proportion(5, 10)
    assert half.low < 0.5 < half.high
    with pytest.raises(ValueError, match="n must be positive"):
        proportion(0, 0)
    with pytest.raises(ValueError, match="k must be"):
        proportion(11, 10)


def test_paired_test_detects_a_constructed_improvement() -> None:
    before = [0.0] * 20
    after = [1.0] * 15 + [0.0] * 5
    result = paired_test(before, after, bounds=(-0.5, 1.0))
    assert result.p_value < 0.05
    assert (result.improved, result.worse, result.tied, result.n_pairs) == (15, 0, 5, 20)
    assert result.mean_difference.mean == pytest.approx(0.75)
    assert result.mean_difference.low is not None and result.mean_difference.low > 0
    assert result.exact  # 15 rows differ: all 2**15 sign flips enumerated
    worse = paired_test(after, before)
    assert worse.p_value == pytest.approx(result.p_value) and worse.worse == 15


def test_paired_test_on_identical_stages_finds_no_difference() -> None:
    rewards = [0.0, 0.5, 1.0, 0.95, -0.5]
    result = paired_test(rewards, list(rewards))
    assert result.p_value == 1.0
    assert result.mean_difference.mean == 0.0
    assert (result.improved, result.worse, result.tied) == (0, 0, 5)


def test_paired_test_counts_errors_as_zero_and_separately() -> None:
    result = paired_test([None, 0.0, 1.0], [1.0, None, 1.0])
    assert (result.errors_before, result.errors_after) == (1, 1)
    assert (result.improved, result.worse, result.tied) == (1, 0, 2)
    with pytest.raises(ValueError, match="same rows"):
        paired_test([1.0], [1.0, 0.0])


def test_paired_test_monte_carlo_is_reproducible() -> None:
    before = [0.0, 1.0] * 30
    after = [1.0, 1.0] * 20 + [0.0, 0.0] * 10
    first, second = paired_test(before, after), paired_test(before, after)
    assert not first.exact and first.p_value == second.p_value


# --- compare ---------------------------------------------------------------------------------


def test_well_formed_uses_the_graders_parser() -> None:
    assert well_formed(record("a", 1, 1.0))
    assert well_formed(record("a", 1, 0.0, final=f"Here:\n```json\n{OK_FINAL}\n```"))
    assert not well_formed(record("a", 1, 0.0, final="the answer is a, b"))
    assert not well_formed(record("a", 1, 0.0, final='{"answer": 1}'))  # no "status"
    two = '{"status": "ok", "answer": 1} {"status": "ok", "answer": 2}'
    assert not well_formed(record("a", 1, 0.0, final=two))
    assert not well_formed(record("a", 1, None))  # an error row has no final answer


def test_tool_use_needs_an_assistant_tool_call() -> None:
    assert uses_tools(record("a", 1, 1.0))
    assert not uses_tools(record("a", 1, 1.0, tools=False))


def test_compare_refuses_mismatched_rows() -> None:
    base = stage(dict.fromkeys(ROWS, 0.0))
    sft = stage(dict.fromkeys([*ROWS[:-1], ("beta", 3)], 0.0))
    with pytest.raises(CompareError, match=r"missing beta/2; extra beta/3"):
        compare_stages({"base": {"trained": base}, "sft": {"trained": sft}})
    with pytest.raises(CompareError, match="appears twice"):
        compare_stages({"base": {"trained": [*base, base[0]]}})
    with pytest.raises(CompareError, match="same subsets"):
        compare_stages({"base": {"trained": base}, "sft": {"held_out": base}})
    with pytest.raises(CompareError, match="no records"):
        compare_stages({"base": {"trained": []}})


def test_spread_counts_rows_whose_samples_differ() -> None:
    passes = [
        stage({("alpha", 1): 1.0, ("alpha", 2): 0.0, ("beta", 1): 0.5, ("beta", 2): None}),
        stage({("alpha", 1): 1.0, ("alpha", 2): 1.0, ("beta", 1): 0.5, ("beta", 2): 0.0}),
        stage({("alpha", 1): 1.0, ("alpha", 2): 0.0, ("beta", 1): 0.0, ("beta", 2): 0.0}),
    ]
    spread = spread_rows(passes)
    # alpha/2 and beta/1 vary; beta/2's error counts as 0, like its other samples.
    assert spread.varied == {
        ("alpha", 1): False,
        ("alpha", 2): True,
        ("beta", 1): True,
        ("beta", 2): False,
    }
    assert (spread.per_row, spread.errors) == (3, 1)
    one_document = spread_rows([[r for records in passes for r in records]])
    assert one_document == spread
    with pytest.raises(CompareError, match="different numbers of samples"):
        spread_rows([passes[0], passes[1][:2]])
    with pytest.raises(CompareError, match="at least 2 samples"):
        spread_rows([passes[0]])
    with pytest.raises(CompareError, match="list of record lists"):
        spread_rows(passes[0])  # type: ignore[arg-type]  # a flat list: the common mistake

    greedy = {"base": {"trained": stage(dict.fromkeys(ROWS, 0.0))}}
    summary = compare_stages(greedy, {"base": {"trained": passes}})
    block = summary["results"]["base"]["trained"]
    assert (block["overall"]["spread"]["k"], block["overall"]["spread"]["n"]) == (2, 4)
    assert block["by_archetype"]["alpha"]["spread"]["k"] == 1
    assert (block["samples_per_row"], block["sample_errors"]) == (3, 1)
    with pytest.raises(CompareError, match="different rows"):
        compare_stages(greedy, {"base": {"trained": [p[:3] for p in passes]}})


def test_paired_test_over_all_runs_uses_each_rows_mean() -> None:
    """With samples, each pair is also tested on per-row means over greedy + samples: a row
    whose greedy run ties but whose samples improve counts as improved there."""
    base_greedy = dict.fromkeys(ROWS, 0.0)
    sft_greedy = {**base_greedy, ("alpha", 1): 1.0}
    base_samples = [stage(dict.fromkeys(ROWS, 0.0)) for _ in range(3)]
    sft_samples = [stage({**dict.fromkeys(ROWS, 1.0), ("beta", 2): None}) for _ in range(3)]
    summary = compare_stages(
        {"base": {"trained": stage(base_greedy)}, "sft": {"trained": stage(sft_greedy)}},
        {"base": {"trained": base_samples}, "sft": {"trained": sft_samples}},
    )
    greedy, all_runs = _row_tests(summary)
    assert (greedy["runs"], all_runs["runs"]) == ("greedy", "greedy+samples")
    assert (greedy["improved"], greedy["tied"]) == (1, 3)
    # alpha/1: (1 + 3) / 4; alpha/2, beta/1: 3 / 4; beta/2: errors count 0.
    assert (all_runs["improved"], all_runs["tied"]) == (3, 1)
    assert all_runs["mean_difference"]["mean"] == pytest.approx((1.0 + 0.75 + 0.75) / 4)
    assert "| trained | base -> sft | greedy+samples | row | 4 |" in markdown_tables(summary)


def _row_tests(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The paired tests with rows as units (the secondary figures), in order."""
    return [t for t in summary["paired"] if t["unit"] == "row"]


def test_summary_is_json_ready_with_paired_tests_between_stages() -> None:
    base = {row: 0.0 for row in ROWS}
    sft = {**base, ("alpha", 1): 1.0, ("beta", 2): None}
    rl = {row: 1.0 for row in ROWS}
    greedy = {
        name: {"trained": stage(rewards), "held_out": stage(base)}
        for name, rewards in (("base", base), ("sft", sft), ("rl", rl))
    }
    greedy["rl"]["held_out"][0]["transcript"] = greedy["rl"]["held_out"][0]["transcript"][-1:]
    summary = compare_stages(greedy)
    json.loads(json.dumps(summary, allow_nan=False))
    assert summary["stages"] == ["base", "sft", "rl"]
    pairs = [(t["subset"], t["before"], t["after"]) for t in _row_tests(summary)]
    assert pairs[:3] == [
        ("trained", "base", "sft"),
        ("trained", "sft", "rl"),
        ("trained", "base", "rl"),
    ]
    sft_block = summary["results"]["sft"]["trained"]["overall"]
    assert sft_block["errors"] == 1 and sft_block["pass"]["k"] == 1
    assert sft_block["reward"]["mean"] == 0.25  # the error row counts as 0
    assert sft_block["well_formed"]["k"] == 3 and sft_block["spread"] is None
    held_out_rl = summary["results"]["rl"]["held_out"]["overall"]
    assert held_out_rl["tool_use"]["k"] == 3
    base_rl = _row_tests(summary)[2]
    assert (base_rl["improved"], base_rl["tied"], base_rl["n_pairs"]) == (4, 0, 4)
    sft_rl = _row_tests(summary)[1]
    assert (sft_rl["errors_before"], sft_rl["improved"], sft_rl["tied"]) == (1, 3, 1)

    tables = markdown_tables(summary)
    assert "**trained**" in tables and "**held_out**" in tables and "**paired tests**" in tables
    assert "| rl | 2 | 1.000 [1.000, 1.000] | 4 | 0 | 1.000" in tables
    assert "| trained | base -> rl | greedy | row | 4 | 1.000" in tables
    assert "| trained | base -> rl | greedy | archetype | 2 | 1.000" in tables


def test_records_from_the_real_rollout_record(registry: Registry) -> None:
    """Records made by the evaluator's own rollout_record, read back from its document."""
    archetypes = list(registry.ids())[:2]
    rollout_keys: set[str] = set()

    def records(rewards: list[float]) -> list[dict[str, Any]]:
        out = []
        for archetype in archetypes:
            for index, reward in enumerate(rewards):
                task = build_task(archetype, seed_for("eval", index), "eval", registry)
                messages: list[dict[str, Any]] = [
                    {"role": "system", "content": "..."},
                    {"role": "assistant", "content": "", "tool_calls": [TOOL_CALL]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "ok", "name": "x"},
                    {"role": "assistant", "content": OK_FINAL},
                ]
                score = Score(reward, {"format_ok": 1.0}, "")
                out.append(rollout_record(Rollout(task, messages, OK_FINAL, score, 10, 5)))
                rollout_keys.update(out[-1])
        return records_of(summarize(out, {"model": "test"}))

    greedy = {"base": {"trained": records([0.0, 0.5])}, "rl": {"trained": records([1.0, 1.0])}}
    summary = compare_stages(greedy)
    assert rollout_keys == set(record("a", 1, 1.0))  # the helper above has the real shape
    block = summary["results"]["rl"]["trained"]
    assert set(block["by_archetype"]) == set(archetypes)
    assert block["overall"]["tool_use"]["k"] == block["overall"]["well_formed"]["k"] == 4
    assert _row_tests(summary)[0]["improved"] == 4
    with pytest.raises(CompareError, match="rollouts"):
        records_of({"records": []})


def test_report_covers_finished_stages_and_says_where_spread_is_missing(
    tmp_path: Any, registry: Registry
) -> None:
    """The report reads the stages whose marker exists (an interrupted one is left out) and
    measures spread only when every stage has sampled runs; otherwise it names the stages."""
    from bs4_lab.plan import Plan, PlanSettings
    from bs4_lab.report import write_learning_report
    from bs4_lab.serving_eval import greedy_path, sample_path

    archetype = next(iter(registry.ids()))
    rows = [(archetype, seed_for("eval", i)) for i in range(3)]
    plan = Plan(PlanSettings(), [archetype], [], [archetype], {"trained": rows})

    def write(path: Any, rewards: list[float]) -> None:
        records = [record(a, s, r) for (a, s), r in zip(rows, rewards, strict=True)]
        header = {"model": "m", "split": "eval", "mode": "learn:trained", "temperature": 0.0}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(summarize(records, header)))

    for stage, rewards in (("eval-base", [0.0, 0.0, 1.0]), ("eval-sft", [1.0, 1.0, 1.0])):
        write(greedy_path(tmp_path / stage, "trained"), rewards)
        (tmp_path / "stages").mkdir(exist_ok=True)
        (tmp_path / "stages" / f"{stage}.json").write_text("{}")
    for k in range(2):
        write(sample_path(tmp_path / "eval-base", "trained", k), [0.0, float(k), 1.0])
    write(greedy_path(tmp_path / "eval-rl", "trained"), [0.0, 0.0, 0.0])  # no marker: running

    write_learning_report(tmp_path, plan)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["stages"] == ["base", "sft"]
    assert summary["spread_not_measured_for"] == ["sft"]
    assert summary["results"]["base"]["trained"]["overall"]["spread"] is None
    assert set(summary["subsets"]) == {"trained", "rl_archetypes"}

    for k in range(2):
        write(sample_path(tmp_path / "eval-sft", "trained", k), [1.0, 1.0, 1.0])
    write_learning_report(tmp_path, plan)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["spread_not_measured_for"] == []
    assert summary["results"]["base"]["trained"]["overall"]["spread"]["k"] == 1
    assert summary["results"]["sft"]["trained"]["overall"]["spread"]["k"] == 0
