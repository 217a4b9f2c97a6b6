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
from bs4_env.learn.serving_eval import EvalSettings, greedy_path, sample_path

STAGE_FOLDERS = {"base": "eval-base", "sft": "eval-sft", "rl": "eval-rl"}
RL_SUBSET = "rl_archetypes"


def _load(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run its eval stage first")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write_learning_report(out: Path, plan: Plan, settings: EvalSettings) -> dict[str, Any]:
    """Write the report files; returns where they are and the headline figures."""
    from bs4_env.evaluation.html_report import write_report

    greedy: dict[str, dict[str, list[dict[str, Any]]]] = {}
    samples: dict[str, dict[str, list[list[dict[str, Any]]]]] = {}
    report = out / "report"
    report.mkdir(parents=True, exist_ok=True)
    pages = []
    for stage, folder_name in STAGE_FOLDERS.items():
        folder = out / folder_name
        if not (folder / "server.log").is_file():
            continue  # stage not evaluated (yet)
        for subset in plan.eval_rows:
            path = greedy_path(folder, subset)
            greedy.setdefault(stage, {})[subset] = records_of(_load(path))
            samples.setdefault(stage, {})[subset] = [
                records_of(_load(sample_path(folder, subset, k))) for k in range(settings.samples)
            ]
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
    summary = compare_stages(greedy, samples if settings.samples >= 2 else None)
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
