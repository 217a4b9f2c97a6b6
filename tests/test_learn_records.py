"""The committed learning-run records are what their committed eval documents give."""

from __future__ import annotations

import json
from pathlib import Path

from bs4_env.learn.compare import compare_stages, records_of
from bs4_env.learn.plan import PLAN_FILE, Plan
from bs4_env.learn.report import STAGE_FOLDERS, primary_result
from bs4_env.learn.serving_eval import greedy_path


def test_run_3_primary_endpoint_is_recomputed_from_its_committed_eval_documents() -> None:
    """The committed record of run 3 (summary.json, docs/learning.md, TEST_RECORDS.md) is what
    the committed eval documents give under today's statistics code."""
    out = Path(__file__).parents[1] / "outputs" / "learn-0p5b-run3-ei"
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
