"""``bs4-env learn``: the staged learning run, each stage checkpointed and resumable.

Stages, in order (each writes ``<out>/stages/<name>.json`` with its figures when done; a
resumed run skips finished stages and continues an interrupted one from its checkpoint):

- ``plan``: the held-out archetypes and eval rows (``plan.json``), fixed before any eval;
- ``data``: ``sft-data`` episodes from the train split of the trained archetypes;
- ``eval-base``: the base model on the eval rows (greedy + samples);
- ``sft``: LoRA SFT on the episodes, then the adapter as a llama.cpp GGUF;
- ``eval-sft``: the SFT adapter on the same rows;
- ``rl``: RL from the SFT adapter on the plan's RL archetypes (train rows);
- ``eval-rl``: the RL adapter on the same rows;
- ``ei``: expert iteration from the SFT adapter on every trained archetype (train rows);
- ``eval-ei``: the expert-iteration adapter on the same rows;
- ``control``: the equal-compute imitation control: from the SFT adapter, SFT on expert
  replays of the rows EI sampled, EI's steps and trained tokens per round;
- ``eval-control``: the control adapter on the same rows;
- ``eval-real``: base, SFT, EI and control on the first rows of the ``real`` page set;
- ``transfer``: continuous measures on the held-out archetypes (NLL of verified episodes
  under each model, first programs that run, solvable rows answered);
- ``report``: ``summary.json``, ``summary.md`` and one HTML report per stage and subset
  (rebuilt on every run, over the stages evaluated so far).

A new plan carries its pre-registration (:mod:`bs4_lab.design`): every stage's settings
are fixed with it, and a stage asked to run with other settings is refused. Every stage marker
records the settings it ran with and, for training stages, the rows and a digest of its data.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bs4_lab.plan import PLAN_FILE
from bs4_lab.plan_commit import BEFORE_REGISTRATION, committed_plan
from bs4_lab.run import LearnSettings, Run
from bs4_lab.stages import STAGES

EVAL_STAGES = {
    "eval-base": None,
    "eval-sft": "sft",
    "eval-rl": "rl",
    "eval-ei": "ei",
    "eval-control": "control",
}
LOOSE_EVAL_SETTINGS = ("samples", "parallel")


def data_rows(data: Path) -> dict[str, Any]:
    """The rows and a sha256 of a training data file (recorded with the stages that use it)."""
    text = data.read_text(encoding="utf-8")
    rows = [f"{r['archetype']}/{r['seed']}" for r in map(json.loads, text.splitlines())]
    return {"sha256": hashlib.sha256(text.encode()).hexdigest(), "rows": rows}


async def _stage_data(run: Run) -> dict[str, Any]:
    from bs4_lab.sft_stage import make_episodes

    settings = run.check("data")
    data = await make_episodes(
        run.registry,
        run.plan.trained,
        run.settings.plan.sft_episodes,
        run.settings.plan.seed,
        run.out / "sft-data",
    )
    summary = json.loads((data.parent / "summary.json").read_text())
    figures = {k: summary[k] for k in ("kept", "dropped", "kinds", "tags", "mix") if k in summary}
    return {"file": str(data), **figures, "data": data_rows(data), **settings}


async def _stage_eval(run: Run, stage: str) -> dict[str, Any]:
    from bs4_lab.serving_eval import evaluate_served

    trained_by = EVAL_STAGES[stage]
    adapter = None if trained_by is None else run.adapter_gguf(trained_by)
    settings = run.check("evaluation")
    base = json.loads(run.marker("eval-base").read_text()) if run.done("eval-base") else {}
    # Runs before this check recorded no settings. The sample count and the slots may differ
    # (samples only add the spread figure); the episode budgets may not. (A plan with a
    # design refuses any difference in run.check.)
    recorded = base.get("evaluation") if trained_by is not None else None
    if recorded is not None:
        differ = [
            k for k in settings if k not in LOOSE_EVAL_SETTINGS and recorded[k] != settings[k]
        ]
        if differ:
            changes = ", ".join(f"{k} {recorded[k]} -> {settings[k]}" for k in differ)
            raise ValueError(f"{stage} would not be like for like with eval-base: {changes}")
    results = await evaluate_served(
        stage,
        run.base_gguf(),
        adapter,
        run.plan.eval_rows,
        run.out / stage,
        run.settings.evaluation,
        run.settings.progress,
    )
    figures: dict[str, Any] = {
        subset: {
            name: {"n": doc["n"], "avg_reward": doc["avg_reward"]} for name, doc in runs.items()
        }
        for subset, runs in results.items()
    }
    return {**figures, "evaluation": settings}


async def _stage_sft(run: Run) -> dict[str, Any]:
    from bs4_env.sft.build import DATA_FILE
    from bs4_lab.sft_stage import load_sequences, train_sft
    from bs4_lab.token_rows import tag_ids
    from bs4_lab.trainer import LoraTrainer

    settings = run.check("sft")
    data = run.out / "sft-data" / DATA_FILE
    model, tokenizer = run.model()
    sequences, dropped = load_sequences(tokenizer, data, run.settings.sft.max_tokens)
    trainer = LoraTrainer(model, run.settings.sft_train, tag_ids(tokenizer))
    figures = train_sft(
        trainer,
        sequences,
        run.settings.sft,
        run.settings.plan.seed,
        run.checkpoint("sft"),
        run.out / "sft" / "sft-log.jsonl",
    )
    trainer.export_adapter(run.adapter_gguf("sft"))
    return {
        **figures,
        "dropped": dropped,
        "token_rows": trainer.rows_trained(),
        **settings,
        "data": data_rows(data),
    }


async def _stage_rl(run: Run) -> dict[str, Any]:
    from bs4_lab.rl_stage import train_rl
    from bs4_lab.token_rows import tag_ids
    from bs4_lab.trainer import LoraTrainer

    settings = run.check("rl")
    model, tokenizer = run.model()
    trainer = LoraTrainer(model, run.settings.rl_train, tag_ids(tokenizer))
    checkpoint = run.checkpoint("rl")
    if not checkpoint.is_dir():
        trainer.load(run.checkpoint("sft"), adapter_only=True)
    figures = await train_rl(
        trainer,
        tokenizer,
        run.base_gguf(),
        run.plan.rl_archetypes,
        run.settings.rl,
        run.settings.evaluation,
        run.settings.plan.seed,
        run.out / "rl",
        checkpoint,
    )
    trainer.export_adapter(run.adapter_gguf("rl"))
    return {**figures, "token_rows": trainer.rows_trained(), **settings}


async def _stage_ei(run: Run) -> dict[str, Any]:
    from bs4_env.sft.build import DATA_FILE
    from bs4_lab.ei_loop import run_iterations

    settings = run.check("ei")
    sft_rows = data_rows(run.out / "sft-data" / DATA_FILE)["rows"]
    excluded = {(a, int(s)) for a, s in (row.rsplit("/", 1) for row in sft_rows)}
    figures = await run_iterations(run, excluded)
    return {**figures, **settings}


async def _stage_control(run: Run) -> dict[str, Any]:
    from bs4_lab.control_stage import run_control

    settings = run.check("control")
    return {**await run_control(run), **settings}


async def _stage_real(run: Run) -> dict[str, Any]:
    from bs4_lab.real_eval_stage import evaluate_real

    settings = run.check("eval-real")
    evaluation = run.check("evaluation")
    return {**await evaluate_real(run), **settings, "evaluation": evaluation}


async def _stage_transfer(run: Run) -> dict[str, Any]:
    from bs4_lab.transfer_stage import measure_transfer

    settings = run.check("transfer")
    if (run.plan.design or {}).get("version", 0) >= 4 and not run.done("control"):
        # Run 4 registers the control's transfer measures: measuring before it trained
        # would leave them out for good (a finished stage is not rerun).
        raise ValueError("transfer measures the control adapter too: run stage control first")
    return {**await measure_transfer(run), **settings}


async def _stage_report(run: Run) -> dict[str, Any]:
    from bs4_lab.report import write_learning_report

    return write_learning_report(run.out, run.plan)


NEEDS = {
    "rl": "sft",
    "ei": "sft",
    "control": "ei",
    "eval-real": "control",
    "transfer": "sft",
    **EVAL_STAGES,
}
RUNNERS: dict[str, Callable[[Run], Awaitable[dict[str, Any]]]] = {
    "data": _stage_data,
    "sft": _stage_sft,
    "rl": _stage_rl,
    "ei": _stage_ei,
    "control": _stage_control,
    "eval-real": _stage_real,
    "transfer": _stage_transfer,
    "report": _stage_report,
}


async def run_stages(
    out: Path, settings: LearnSettings, stages: list[str], say: Callable[[str], None]
) -> None:
    """Run the named stages in order, skipping finished ones; each prints its figures."""
    unknown = [s for s in stages if s not in STAGES]
    if unknown:
        raise ValueError(f"unknown stages {unknown}; valid: {list(STAGES)}")
    run = Run(out, settings)
    run.check_generators()
    if "eval-real" in stages and not run.done("eval-real"):
        # eval-real comes hours into a run: a machine without the pages fails here, at once.
        from bs4_lab.real_eval_stage import real_rows

        real_rows(run.settings.real)
    say(f"plan: held out {run.plan.held_out}; RL on {run.plan.rl_archetypes}")
    if not run.done("plan"):
        run.finish("plan", run.plan.to_json() | {"settings_all": _jsonable(settings)})
    for stage in [s for s in STAGES if s in stages and s != "plan"]:
        # The report is rebuilt on every run: it covers whichever stages are evaluated so far.
        if run.done(stage) and stage != "report":
            say(f"{stage}: done earlier ({run.marker(stage)})")
            continue
        needed = NEEDS.get(stage)
        if needed is not None and not run.done(needed):
            raise ValueError(f"{stage} needs stage {needed!r} first")
        registration = _registration(run, stage)
        started = time.monotonic()
        if stage in EVAL_STAGES:
            figures = await _stage_eval(run, stage)
        else:
            figures = await RUNNERS[stage](run)
        figures["seconds"] = round(time.monotonic() - started, 1)
        run.finish(stage, {**figures, **registration})
        say(f"{stage}: {json.dumps(figures, default=str)[:2000]}")


def _registration(run: Run, stage: str) -> dict[str, Any]:
    """The commit registering the plan, for a stage past the registration (run 4's design on;
    earlier runs predate the rule and are finished)."""
    if stage in BEFORE_REGISTRATION or (run.plan.design or {}).get("version", 0) < 4:
        return {}
    if run.settings.allow_uncommitted_plan:
        return {"plan_commit": None, "plan_uncommitted": True}
    return {"plan_commit": committed_plan(run.out / PLAN_FILE)}


def _jsonable(settings: LearnSettings) -> dict[str, Any]:
    data = asdict(settings)
    data["source"] = {"kind": settings.source.kind, "path": str(settings.source.path)}
    return data
