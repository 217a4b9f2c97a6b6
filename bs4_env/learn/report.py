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

from bs4_env.learn.compare import compare_stages, records_of
from bs4_env.learn.compare_tables import markdown_tables
from bs4_env.learn.plan import Plan
from bs4_env.learn.serving_eval import greedy_path, sample_path

STAGE_FOLDERS = {"base": "eval-base", "sft": "eval-sft", "rl": "eval-rl"}
RL_SUBSET = "rl_archetypes"


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


def write_learning_report(out: Path, plan: Plan) -> dict[str, Any]:
    """Write the report files; returns where they are and the headline figures."""
    from bs4_env.evaluation.html_report import write_report

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
    summary = compare_stages(greedy, None if unsampled else samples)
    summary["spread_not_measured_for"] = unsampled
    summary["plan"] = plan.to_json()
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    tables = markdown_tables(summary)
    (out / "summary.md").write_text(tables + "\n", encoding="utf-8")
    print(tables)
    headline = {
        stage: {subset: block["overall"]["reward"]["mean"] for subset, block in by_subset.items()}
        for stage, by_subset in summary["results"].items()
    }
    return {"summary": str(out / "summary.json"), "pages": pages, "mean_reward": headline}
