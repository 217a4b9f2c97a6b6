"""Expert iteration (ReST-EM, STaR) from the SFT adapter, on the environment's own reward.

Each iteration serves the current adapter with llama.cpp, plays ``samples_per_row`` rollouts
of fresh train rows of every trained archetype at ``temperature`` through the engine, keeps
the rollouts the grader gives the row's best reward (1.0 on a solvable page, 0.5 for a
justified abstention), and fine-tunes the adapter on them with the SFT path (weight 1, token-
level NLL) on the tokens the model sampled (:mod:`bs4_lab.sampled`). Rows solved every
time teach the least, so each row keeps at most ``keep_per_row`` distinct successes: rows the
model solves sometimes weigh as much as rows it always solves. Train rows of the SFT data are
never drawn.

Why no importance ratio: each iteration's kept samples are imitation targets drawn from the
adapter being tuned (behaviour cloning of its own best behaviour), not a policy-gradient
estimate, so the mismatch between llama.cpp's quantized sampler and the trainer's f32 weights
biases nothing the loss claims; calls sampled under llama.cpp's call grammar are trained as
the ids that grammar let through.

Every iteration resumes: its rollouts are journaled one per line, its training checkpoints
like the SFT stage's, and a finished iteration leaves ``done.json``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from random import Random
from typing import Any

from tqdm import tqdm

from bs4_env.episode.executors import make_executor
from bs4_env.episode.tool_schema import openai_tools
from bs4_env.evaluation.openai_policy import Endpoint, OpenAIChatPolicy
from bs4_env.evaluation.rollout import run_rollout
from bs4_env.sft.replay import best_reward
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import TRAIN_SEEDS_PER_ARCHETYPE, seed_for
from bs4_lab.llama_server import LlamaServer
from bs4_lab.render import RenderError, Sequence_
from bs4_lab.sampled import sampled_sequences
from bs4_lab.serving_eval import EvalSettings

JOURNAL = "rollouts.jsonl"
DONE = "done.json"


@dataclass(frozen=True)
class EiSettings:
    iterations: int = 2
    rows_per_archetype: int = 2
    samples_per_row: int = 4
    temperature: float = 1.0
    keep_per_row: int = 2
    episodes_per_step: int = 4


def iteration_rows(
    archetypes: list[str], iteration: int, per: int, seed: int, excluded: set[tuple[str, int]]
) -> list[tuple[str, int]]:
    """Fresh train rows of one iteration (seeded by iteration; never an ``excluded`` row)."""
    rng = Random(f"ei-rows:{seed}:{iteration}")
    rows: list[tuple[str, int]] = []
    for archetype in archetypes:
        taken = 0
        while taken < per:
            row = (archetype, seed_for("train", rng.randrange(TRAIN_SEEDS_PER_ARCHETYPE)))
            if row in excluded or row in rows:
                continue
            rows.append(row)
            taken += 1
    return rows


def _journaled(path: Path) -> dict[tuple[str, int, int], dict[str, Any]]:
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        out[record["archetype"], record["seed"], record["sample"]] = record
    return out


async def sample_rollouts(
    server: LlamaServer,
    rows: list[tuple[str, int]],
    settings: EiSettings,
    evaluation: EvalSettings,
    journal: Path,
    progress: bool,
) -> list[dict[str, Any]]:
    """``samples_per_row`` rollouts of each row, journaled (a resumed run plays the rest)."""
    done = _journaled(journal)
    wanted = [(a, s, k) for a, s in rows for k in range(settings.samples_per_row)]
    todo = [key for key in wanted if key not in done]
    policy = OpenAIChatPolicy(
        server.model,
        Endpoint(server.base_url, "local"),
        evaluation.max_tokens,
        settings.temperature,
        timeout_s=900.0,
        capture_token_ids=True,
    )
    gate = asyncio.Semaphore(evaluation.parallel)
    lock = asyncio.Lock()
    bar = tqdm(
        total=len(wanted), initial=len(wanted) - len(todo), desc="ei rollouts", disable=not progress
    )
    try:
        async with make_executor("local", concurrency=evaluation.parallel) as executor:

            async def one(archetype: str, seed: int, sample: int) -> None:
                async with gate:
                    task = build_task(archetype, seed, "train")
                    rollout = await run_rollout(
                        task, policy, executor, evaluation.budgets(), evaluation.max_turns
                    )
                record = {
                    "archetype": archetype,
                    "seed": seed,
                    "sample": sample,
                    "reward": rollout.score.reward,
                    "best": best_reward(task),
                    "history": rollout.history,
                    "sampled": [[sent, list(ids)] for sent, ids in rollout.sampled],
                }
                async with lock:
                    with journal.open("a", encoding="utf-8") as sink:
                        sink.write(json.dumps(record, ensure_ascii=False) + "\n")
                    done[archetype, seed, sample] = record
                    bar.update(1)

            await asyncio.gather(*(one(*key) for key in todo))
    finally:
        bar.close()
        await policy.aclose()
    return [done[key] for key in wanted]


def keep_best(records: list[dict[str, Any]], keep_per_row: int) -> list[dict[str, Any]]:
    """Per row, up to ``keep_per_row`` rollouts at the row's best reward, distinct in what was
    sampled, in sample order."""
    kept: list[dict[str, Any]] = []
    seen: dict[tuple[str, int], list[Any]] = {}
    for record in records:
        if record["reward"] != record["best"] or not record["sampled"]:
            continue
        row = (record["archetype"], record["seed"])
        taken = seen.setdefault(row, [])
        if len(taken) >= keep_per_row or record["sampled"] in taken:
            continue
        taken.append(record["sampled"])
        kept.append(record)
    return kept


def kept_sequences(
    tokenizer: Any, kept: list[dict[str, Any]], max_tokens: int
) -> tuple[list[Sequence_], dict[str, int]]:
    """The training sequences of the kept rollouts; over-long ones are dropped and counted."""
    tools = openai_tools()
    sequences: list[Sequence_] = []
    dropped = {"too_long": 0, "unrenderable": 0}
    for record in kept:
        try:
            made = sampled_sequences(
                tokenizer, record["history"], [(s, ids) for s, ids in record["sampled"]], tools
            )
        except RenderError:
            dropped["unrenderable"] += 1
            continue
        for sequence in made:
            if len(sequence.ids) > max_tokens:
                dropped["too_long"] += 1
            else:
                sequences.append(sequence)
    return sequences, dropped


def sampling_figures(records: list[dict[str, Any]], kept: list[dict[str, Any]]) -> dict[str, Any]:
    """What one iteration's sampling found: success per row, rows solved sometimes."""
    by_row: dict[tuple[str, int], list[bool]] = {}
    for record in records:
        row = (record["archetype"], record["seed"])
        by_row.setdefault(row, []).append(record["reward"] == record["best"])
    solved = [sum(v) for v in by_row.values()]
    per_archetype: dict[str, list[int]] = {}
    for (archetype, _), hits in by_row.items():
        per_archetype.setdefault(archetype, []).append(sum(hits))
    return {
        "rollouts": len(records),
        "rows_sampled": len(by_row),
        "best_reward_rate": round(sum(solved) / len(records), 4) if records else None,
        "rows_never_solved": sum(s == 0 for s in solved),
        "rows_solved_sometimes": sum(
            0 < s < len(v) for s, v in zip(solved, by_row.values(), strict=True)
        ),
        "rows_always_solved": sum(
            s == len(v) for s, v in zip(solved, by_row.values(), strict=True)
        ),
        "kept": len(kept),
        "kept_rows": sorted({f"{r['archetype']}/{r['seed']}" for r in kept}),
        "solved_by_archetype": dict(sorted(per_archetype.items())),
        "mean_reward": round(sum(r["reward"] for r in records) / len(records), 4)
        if records
        else None,
    }


def sequences_digest(sequences: list[Sequence_]) -> str:
    """A sha256 of the exact training data (ids and masks), recorded with the stage."""
    digest = hashlib.sha256()
    for sequence in sequences:
        digest.update(json.dumps([sequence.ids, sequence.mask]).encode())
    return digest.hexdigest()


def settings_dict(settings: EiSettings) -> dict[str, Any]:
    return asdict(settings)
