"""The learning run's report: stages compared on the same rows, plus the usual HTML reports.

Reads the results documents of every evaluated stage (``eval-base``, ``eval-sft``,
``eval-rl``; whichever exist), compares them with ``compare.compare_stages`` (intervals and
paired tests) and writes ``summary.json``, ``summary.md`` and ``bs4-env report`` HTML pages
for each stage and subset under ``<out>/report``. Besides the plan's subsets, the summary has
``rl_archetypes``: the ``trained`` rows of the archetypes RL trained on, where RL's gain over
SFT is measured.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bs4_lab.compare import compare_stages, default_pairs, records_of
from bs4_lab.compare_tables import design_tables, markdown_tables
from bs4_lab.plan import Plan
from bs4_lab.secondary_tables import secondary_tables
from bs4_lab.serving_eval import greedy_path, sample_path

# In this order: consecutive stages are paired, so run 4 gets sft -> control -> ei.
STAGE_FOLDERS = {
    "base": "eval-base",
    "sft": "eval-sft",
    "rl": "eval-rl",
    "control": "eval-control",
    "ei": "eval-ei",
}
RL_SUBSET = "rl_archetypes"
# Where each stage's marker records the settings the plan registered for it.
RECORDED = {
    "eval-base": "evaluation",
    "eval-sft": "evaluation",
    "eval-rl": "evaluation",
    "eval-ei": "evaluation",
    "eval-control": "evaluation",
}


def _load(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run its eval stage first")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _sample_runs(folder: Path, subset: str) -> list[list[dict[str, Any]]]:
    """The records of every sampled run of a subset (``sample0``, ``sample1``, ... as found)."""
    runs: list[list[dict[str, Any]]] = []
    while (path := sample_path(folder, subset, len(runs))).is_file():
        runs.append(records_of(_load(path)))
    return runs


def check_markers(out: Path, plan: Plan) -> None:
    """Refuse to report a stage whose marker records settings other than the registered ones."""
    if plan.design is None:
        return
    registered = plan.design["stages"]
    for marker in sorted((out / "stages").glob("*.json")):
        stage = marker.stem
        figures = json.loads(marker.read_text())
        name = RECORDED.get(stage, stage)
        if name not in registered:
            continue
        recorded = (
            figures.get("evaluation")
            if name == "evaluation"
            else {k: figures.get(k) for k in registered[name]}
        )
        if recorded != registered[name]:
            raise ValueError(
                f"{marker} records settings other than the plan's for {name!r}: the report"
                f" compares only stages run as registered ({recorded} != {registered[name]})"
            )


def _primary_pair(plan: Plan) -> tuple[str, str] | None:
    if plan.design is None:
        return None
    before, after = (part.strip() for part in plan.design["primary"]["comparison"].split("->"))
    return before, after


def primary_result(summary: dict[str, Any], plan: Plan) -> dict[str, Any] | None:
    """The registered primary endpoint, read from the paired tests (None until both ran)."""
    pair = _primary_pair(plan)
    if plan.design is None or pair is None:
        return None
    primary = plan.design["primary"]
    before, after = pair
    for test in summary["paired"]:
        if (test["subset"], test["before"], test["after"]) == (
            primary["subset"],
            before,
            after,
        ) and (
            test["runs"],
            test.get("unit"),
        ) == ("greedy", "archetype"):
            gain = test["mean_difference"]["mean"]
            met = test["p_value"] < primary["alpha"] and gain >= primary["target_mean_gain"]
            return {**primary, "result": test, "met": met}
    return {**primary, "result": None, "met": None}


def write_learning_report(out: Path, plan: Plan) -> dict[str, Any]:
    """Write the report files; returns where they are and the headline figures."""
    from bs4_env.evaluation.html_report import write_report

    check_markers(out, plan)

    greedy: dict[str, dict[str, list[dict[str, Any]]]] = {}
    samples: dict[str, dict[str, list[list[dict[str, Any]]]]] = {}
    report = out / "report"
    report.mkdir(parents=True, exist_ok=True)
    pages = []
    for stage, folder_name in STAGE_FOLDERS.items():
        folder = out / folder_name
        if not (out / "stages" / f"{folder_name}.json").is_file():
            continue  # stage not evaluated (yet): its marker is written when it finishes
        for subset in plan.eval_rows:
            path = greedy_path(folder, subset)
            greedy.setdefault(stage, {})[subset] = records_of(_load(path))
            samples.setdefault(stage, {})[subset] = _sample_runs(folder, subset)
            page = report / f"{stage}-{subset}.html"
            write_report(path, page)
            pages.append(str(page))
    if not greedy:
        raise ValueError(f"no evaluated stage under {out}: run eval-base first")
    if plan.rl_archetypes:
        chosen = set(plan.rl_archetypes)
        for stage in greedy:
            greedy[stage][RL_SUBSET] = [
                r for r in greedy[stage]["trained"] if r["archetype"] in chosen
            ]
            samples[stage][RL_SUBSET] = [
                [r for r in records if r["archetype"] in chosen]
                for records in samples[stage]["trained"]
            ]
    # Spread needs at least two sampled runs of every row in every stage compared; a stage
    # evaluated greedily only (e.g. --samples 0) leaves it out for all, and says so.
    unsampled = sorted(
        stage for stage, by_subset in samples.items() if min(map(len, by_subset.values())) < 2
    )
    pairs = default_pairs(list(greedy))
    registered = _primary_pair(plan)
    if registered is not None and set(registered) <= set(greedy) and registered not in pairs:
        pairs.append(registered)
    summary = compare_stages(greedy, None if unsampled else samples, pairs)
    summary["spread_not_measured_for"] = unsampled
    summary["primary"] = primary_result(summary, plan)
    transfer = out / "transfer" / "transfer.json"
    summary["transfer"] = json.loads(transfer.read_text()) if transfer.is_file() else None
    if plan.design is not None and plan.design.get("version", 0) >= 4:
        from bs4_lab.secondary import secondary_results

        summary["secondary"] = secondary_results(out, summary)
    summary["plan"] = plan.to_json()
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    tables = design_tables(summary) + secondary_tables(summary) + markdown_tables(summary)
    (out / "summary.md").write_text(tables + "\n", encoding="utf-8")
    print(tables)
    headline = {
        stage: {subset: block["overall"]["reward"]["mean"] for subset, block in by_subset.items()}
        for stage, by_subset in summary["results"].items()
    }
    return {"summary": str(out / "summary.json"), "pages": pages, "mean_reward": headline}
