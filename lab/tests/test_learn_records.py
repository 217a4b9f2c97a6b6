"""The committed learning-run records are what their committed eval documents give."""

from __future__ import annotations

import json
from pathlib import Path

from bs4_env.grading.answer import parse_final_answer
from bs4_lab.compare import _archetype_means, compare_stages, records_of
from bs4_lab.ei_stage import keep_best
from bs4_lab.plan import PLAN_FILE, Plan
from bs4_lab.report import STAGE_FOLDERS, primary_result
from bs4_lab.serving_eval import greedy_path
from bs4_lab.stats import paired_test


def test_run_3_primary_endpoint_is_recomputed_from_its_committed_eval_documents() -> None:
    """The committed record of run 3 (summary.json, docs/learning.md, TEST_RECORDS.md) is what
    the committed eval documents give under today's statistics code."""
    out = Path(__file__).parents[2] / "outputs" / "learn-0p5b-run3-ei"
    plan = Plan.from_json(json.loads((out / PLAN_FILE).read_text()))
    greedy = {
        stage: {
            subset: records_of(
                json.loads(greedy_path(out / STAGE_FOLDERS[stage], subset).read_text())
            )
            for subset in plan.eval_rows
        }
        for stage in ("sft", "ei")
    }
    primary = primary_result(compare_stages(greedy, None, [("sft", "ei")]), plan)
    committed = json.loads((out / "summary.json").read_text())["primary"]
    assert primary is not None and primary == committed
    result = primary["result"]
    counts = (result["n_pairs"], result["improved"], result["worse"], result["tied"])
    assert counts == (22, 11, 4, 7)
    assert round(result["mean_difference"]["mean"], 3) == 0.148
    assert round(result["p_value"], 3) == 0.244 and primary["met"] is False


def test_run_3_kept_only_answers_and_held_out_nll_fell_per_archetype() -> None:
    """Two figures docs/learning.md quotes that the report does not print: every rollout EI
    kept ends with an ``ok`` answer (no abstention was ever kept), and the base -> EI NLL fall
    on held-out episodes with the 5 held-out archetypes as units."""
    out = Path(__file__).parents[2] / "outputs" / "learn-0p5b-run3-ei"
    keep_per_row = json.loads((out / "stages" / "ei.json").read_text())["ei"]["keep_per_row"]
    statuses = []
    for iteration in (1, 2):
        lines = (out / "ei" / f"iter-{iteration}" / "rollouts.jsonl").read_text().splitlines()
        for record in keep_best([json.loads(line) for line in lines], keep_per_row):
            statuses.append(parse_final_answer(record["history"][-1]["content"]).status)
    assert len(statuses) == 59 and set(statuses) == {"ok"}

    transfer = json.loads((out / "transfer" / "transfer.json").read_text())
    keys = [(a, 0) for a in transfer["episode_archetypes"]]
    base, ei = (
        list(_archetype_means(keys, transfer["nll_by_episode"][m]).values()) for m in ("base", "ei")
    )
    assert len(base) == 5 and all(after < before for before, after in zip(base, ei, strict=True))
    test = paired_test(base, ei)
    assert round(test.mean_difference.mean, 3) == -1.021
    interval = test.mean_difference
    assert (round(interval.low, 3), round(interval.high, 3)) == (-1.628, -0.413)
    assert test.exact and test.p_value == 2 / 2**5
