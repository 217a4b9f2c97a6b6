"""The CPU-time estimate a plan registers: seconds per stage from run 3's measured rates.

Every rate is wall-clock seconds on the 2-core development box with the learning run alone
on it (Qwen2.5-Coder-0.5B Q4_K_M served by llama.cpp with 4 slots; training in float32),
taken from run 3's stage files and TEST_RECORDS.md. The estimate multiplies them by the
plan's sizes (rows, episodes, rollouts, models), so the arithmetic is checkable by hand; it
is written into the plan's design (key ``budget``) before anything runs. RL stages are left
out: the registered runs since run 3 do not run them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bs4_lab.plan import Plan

RATES = {
    "eval_row_base": 26.4,  # eval-base: 154 greedy rows in 4,062 s
    "eval_row_adapter": 19.0,  # eval-ei, trained subset: 88 greedy rows in 28 min
    "real_row_adapter": 45.0,  # real, 21 rows: SFT adapter 19 min (54 s), EI 10 min (29 s)
    "real_row_base": 20.0,  # assumed: the base answers at once, without a tool call
    "data_episode": 0.28,  # data: 300 sft-data episodes in 85 s
    "sft_episode": 14.5,  # sft: 300 episodes (75 steps of 4) in 4,342 s
    "ei_rollout": 36.0,  # ei iteration 2: 192 rollouts in about 6,900 s of sampling
    "kept_sequences_per_rollout": 0.21,  # ei: 82 training sequences from 384 rollouts
    "train_step": 34.6,  # ei fine-tunes: 21 steps of 4 sequences in 727 s
    "transfer_episode_model": 9.2,  # transfer: 60 episodes x 3 models in 1,662 s
}
BUDGETED_MODELS = ("base", "sft", "ei", "control")


def estimate(plan: Plan, stages: Mapping[str, Any]) -> dict[str, Any]:
    """Seconds per stage and in all, with the arithmetic of each line."""
    rows = sum(len(v) for v in plan.eval_rows.values())
    evaluation = stages["evaluation"]
    runs = 1 + int(evaluation["samples"])
    ei = stages["ei"]["ei"]
    rollouts = len(plan.trained) * ei["rows_per_archetype"] * ei["samples_per_row"]
    per_step = ei["episodes_per_step"]
    steps = ei["iterations"] * math.ceil(rollouts * RATES["kept_sequences_per_rollout"] / per_step)
    episodes = stages["data"]["episodes"]
    real = stages.get("eval-real", {"rows": 0})["rows"]
    held = len(plan.held_out) * stages["transfer"]["episodes_per_archetype"]
    lines = {
        "data": (episodes * RATES["data_episode"], f"{episodes} episodes x data_episode"),
        "eval-base": (
            rows * runs * RATES["eval_row_base"],
            f"{rows} rows x {runs} runs x eval_row_base",
        ),
        "sft": (episodes * RATES["sft_episode"], f"{episodes} episodes x sft_episode"),
        "ei": (
            ei["iterations"] * rollouts * RATES["ei_rollout"] + steps * RATES["train_step"],
            f"{ei['iterations']} rounds x {rollouts} rollouts ({len(plan.trained)} archetypes x"
            f" {ei['rows_per_archetype']} rows x {ei['samples_per_row']} samples) x ei_rollout"
            f" + about {steps} steps (kept_sequences_per_rollout, {per_step} per step)"
            " x train_step",
        ),
        "control": (
            steps * RATES["train_step"]
            + ei["iterations"]
            * len(plan.trained)
            * ei["rows_per_archetype"]
            * RATES["data_episode"],
            f"EI's {steps} steps x train_step + its rows' expert episodes x data_episode",
        ),
        "eval-real": (
            real * (RATES["real_row_base"] + 3 * RATES["real_row_adapter"]),
            f"{real} rows x (real_row_base + 3 x real_row_adapter)",
        ),
        "transfer": (
            held * len(BUDGETED_MODELS) * RATES["transfer_episode_model"],
            f"{held} held-out episodes x {len(BUDGETED_MODELS)} models x transfer_episode_model",
        ),
    }
    for stage in ("eval-sft", "eval-ei", "eval-control"):
        lines[stage] = (
            rows * runs * RATES["eval_row_adapter"],
            f"{rows} rows x {runs} runs x eval_row_adapter",
        )
    seconds = {stage: round(value) for stage, (value, _) in lines.items()}
    total = sum(seconds.values())
    return {
        "basis": "wall-clock seconds on 2 cores with nothing else running; run 3's rates",
        "rates": dict(RATES),
        "seconds": seconds,
        "arithmetic": {stage: text for stage, (_, text) in lines.items()},
        "total_seconds": total,
        "total_hours": round(total / 3600, 1),
    }
