"""RL on CPU from the SFT adapter: group sampling, our reward, group-relative advantages.

Each step draws ``rows_per_step`` train rows of the plan's RL archetypes, serves the current
adapter with llama.cpp, plays ``group_size`` rollouts per row at ``temperature`` through the
engine (our reward, nothing else), and keeps only groups whose rewards differ. A sample's
advantage is its reward minus its group's mean; the LoRA update is the policy-gradient loss
``-A * log p(assistant tokens)`` normalised by the batch's token count (prime-rl's default
token-level normalisation, without its importance ratio: each batch is sampled from the
adapter being updated and used for exactly one step). The sampler serves the quantized GGUF
while the trainer holds dequantized weights; that mismatch is not corrected.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from tqdm import tqdm

from bs4_env.episode.engine import Budgets
from bs4_env.episode.executors import make_executor
from bs4_env.episode.tool_schema import openai_tools
from bs4_env.evaluation.openai_policy import Endpoint, OpenAIChatPolicy
from bs4_env.evaluation.rollout import run_rollout
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import TRAIN_SEEDS_PER_ARCHETYPE, seed_for
from bs4_lab.llama_server import LlamaServer
from bs4_lab.render import RenderError, render_episode, shared_prefix_length
from bs4_lab.serving_eval import EvalSettings
from bs4_lab.trainer import LoraTrainer


@dataclass(frozen=True)
class RlSettings:
    steps: int = 8
    rows_per_step: int = 4
    group_size: int = 4
    temperature: float = 1.0


def step_rows(archetypes: list[str], step: int, count: int, seed: int) -> list[tuple[str, int]]:
    """The train rows of one RL step (seeded by step, so a resumed run draws the same)."""
    rng = Random(f"rl-rows:{seed}:{step}")
    return [
        (rng.choice(archetypes), seed_for("train", rng.randrange(TRAIN_SEEDS_PER_ARCHETYPE)))
        for _ in range(count)
    ]


async def _sample_groups(
    server: LlamaServer,
    rows: list[tuple[str, int]],
    settings: RlSettings,
    budgets: Budgets,
    eval_settings: EvalSettings,
) -> list[list[dict[str, Any]]]:
    policy = OpenAIChatPolicy(
        server.model,
        Endpoint(server.base_url, "local"),
        eval_settings.max_tokens,
        settings.temperature,
        timeout_s=900.0,
    )
    gate = asyncio.Semaphore(eval_settings.parallel)
    try:
        async with make_executor("local", concurrency=eval_settings.parallel) as executor:

            async def one(archetype: str, seed: int) -> dict[str, Any]:
                async with gate:
                    task = build_task(archetype, seed, "train")
                    rollout = await run_rollout(
                        task, policy, executor, budgets, eval_settings.max_turns
                    )
                    return {"reward": rollout.score.reward, "messages": rollout.messages}

            groups = await asyncio.gather(
                *(asyncio.gather(*(one(a, s) for _ in range(settings.group_size))) for a, s in rows)
            )
    finally:
        await policy.aclose()
    return [list(g) for g in groups]


def advantages(rewards: list[float]) -> list[float]:
    """Reward minus the group mean (zero for every member of a group without spread)."""
    mean = sum(rewards) / len(rewards)
    return [r - mean for r in rewards]


async def train_rl(
    trainer: LoraTrainer,
    tokenizer: Any,
    base_gguf: Path,
    archetypes: list[str],
    settings: RlSettings,
    eval_settings: EvalSettings,
    seed: int,
    folder: Path,
    checkpoint: Path,
) -> dict[str, Any]:
    """Run (or finish) the RL steps; each step's figures go to ``folder/rl-log.jsonl``."""
    if checkpoint.is_dir():
        trainer.load(checkpoint)
    budgets = eval_settings.budgets()
    tools = openai_tools()
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "rl-log.jsonl"
    with tqdm(total=settings.steps, initial=trainer.steps, desc="rl steps") as bar:
        for step in range(trainer.steps, settings.steps):
            adapter = folder / "current-adapter.gguf"
            trainer.export_adapter(adapter)
            server = eval_settings.server(base_gguf, adapter, folder / "server.log")
            rows = step_rows(archetypes, step, settings.rows_per_step, seed)
            started = time.monotonic()
            async with server:
                groups = await _sample_groups(server, rows, settings, budgets, eval_settings)
            sampling = time.monotonic() - started
            batch, unrenderable = [], 0
            spread_groups = 0
            for group in groups:
                rewards = [float(g["reward"]) for g in group]
                if len(set(rewards)) < 2:
                    continue  # no spread: every advantage is zero, nothing to learn
                spread_groups += 1
                for sample, advantage in zip(group, advantages(rewards), strict=True):
                    try:
                        sequence = render_episode(tokenizer, sample["messages"], tools)
                    except RenderError:
                        unrenderable += 1
                        continue
                    batch.append((sequence, advantage))
            record: dict[str, Any] = {
                "step": step + 1,
                "rows": rows,
                "mean_reward": sum(g["reward"] for grp in groups for g in grp)
                / sum(len(grp) for grp in groups),
                "rewards": [[g["reward"] for g in grp] for grp in groups],
                "groups_with_spread": spread_groups,
                "unrenderable": unrenderable,
                "sampling_seconds": round(sampling, 1),
            }
            if batch:
                stats = trainer.step(batch, shared_prefix_length([s for s, _ in batch]))
                record.update(loss=stats.loss, seconds=stats.seconds, samples=len(batch))
            else:
                trainer.steps += 1  # a step with no spread still counts: the rows were drawn
            trainer.save(checkpoint)
            with log.open("a", encoding="utf-8") as sink:
                sink.write(json.dumps(record) + "\n")
            bar.update(1)
            bar.set_postfix(reward=f"{record['mean_reward']:.2f}", spread=spread_groups)
    return {"steps": settings.steps, "log": str(log), **_log_figures(log)}


def _log_figures(log: Path) -> dict[str, Any]:
    """Totals over every step in the log (earlier runs of a resumed stage included)."""
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    rewards = [r for record in records for group in record["rewards"] for r in group]
    half = len(records) // 2
    return {
        "rollouts": len(rewards),
        "mean_reward": round(sum(rewards) / len(rewards), 4) if rewards else None,
        "mean_reward_by_step": [round(record["mean_reward"], 4) for record in records],
        "mean_reward_first_half": _mean(r["mean_reward"] for r in records[:half]),
        "mean_reward_second_half": _mean(r["mean_reward"] for r in records[half:]),
        "groups": sum(len(record["rewards"]) for record in records),
        "groups_with_spread": sum(record["groups_with_spread"] for record in records),
        "samples_trained": sum(record.get("samples", 0) for record in records),
        "sampling_seconds": round(sum(record["sampling_seconds"] for record in records), 1),
        "training_seconds": round(sum(record.get("seconds", 0.0) for record in records), 1),
    }


def _mean(values: Any) -> float | None:
    items = list(values)
    return round(sum(items) / len(items), 4) if items else None
