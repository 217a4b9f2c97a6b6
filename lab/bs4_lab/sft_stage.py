"""The warm start: ``sft-data`` episodes of the trained archetypes, then LoRA SFT on them.

Episodes come from the ``train`` split of the plan's trained archetypes only (held-out ones
never appear), are replayed through the engine by ``bs4_env.sft.build`` (kept only at the best
reward), and are rendered with the model's own chat template. Training checkpoints every
``checkpoint_every`` steps and resumes from the last checkpoint.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from tqdm import tqdm

from bs4_env.episode.executors import make_executor
from bs4_env.sft.build import DATA_FILE, generate
from bs4_env.sft.rows import sft_rows
from bs4_env.tasks.registry import Registry
from bs4_lab.render import RenderError, Sequence_, render_record, shared_prefix_length
from bs4_lab.trainer import LoraTrainer


@dataclass(frozen=True)
class SftSettings:
    epochs: int = 1
    episodes_per_step: int = 4
    max_tokens: int = 3072
    checkpoint_every: int = 10


async def make_episodes(
    registry: Registry, archetypes: list[str], count: int, seed: int, folder: Path
) -> Path:
    """``sft-data`` for these archetypes (written once; a rerun reuses the file)."""
    data = folder / DATA_FILE
    if data.is_file() and (folder / "summary.json").is_file():
        return data
    rows = sft_rows(registry, archetypes, count, seed)
    async with make_executor("local", concurrency=2) as executor:
        await generate(rows, registry, executor, folder, seed)
    return data


def rendered_episodes(
    tokenizer: Any, data: Path, max_tokens: int
) -> tuple[list[Sequence_], list[dict[str, Any]], dict[str, int]]:
    """The episodes as training sequences, each with its record; over-long or unrenderable
    ones are dropped and counted."""
    sequences: list[Sequence_] = []
    records: list[dict[str, Any]] = []
    dropped = {"too_long": 0, "unrenderable": 0}
    for line in data.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        try:
            sequence = render_record(tokenizer, record)
        except RenderError:
            dropped["unrenderable"] += 1
            continue
        if len(sequence.ids) > max_tokens:
            dropped["too_long"] += 1
            continue
        sequences.append(sequence)
        records.append(record)
    return sequences, records, dropped


def load_sequences(
    tokenizer: Any, data: Path, max_tokens: int
) -> tuple[list[Sequence_], dict[str, int]]:
    """Rendered episodes; over-long or unrenderable ones are dropped and counted."""
    sequences, _, dropped = rendered_episodes(tokenizer, data, max_tokens)
    if not sequences:
        raise ValueError(f"no trainable episodes in {data} (dropped: {dropped})")
    return sequences, dropped


def train_sft(
    trainer: LoraTrainer,
    sequences: list[Sequence_],
    settings: SftSettings,
    seed: int,
    checkpoint: Path,
    log: Path,
) -> dict[str, Any]:
    """Run (or finish) the SFT steps; returns token and time figures of this run."""
    prefix = shared_prefix_length(sequences)
    order: list[int] = []
    for epoch in range(settings.epochs):
        shuffled = list(range(len(sequences)))
        Random(f"sft-order:{seed}:{epoch}").shuffle(shuffled)
        order += shuffled
    size = settings.episodes_per_step
    batches = [order[i : i + size] for i in range(0, len(order), size)]
    log.parent.mkdir(parents=True, exist_ok=True)
    if checkpoint.is_dir():
        trainer.load(checkpoint)
    seconds, suffix_tokens, trained_tokens = 0.0, 0, 0
    with (
        log.open("a", encoding="utf-8") as sink,
        tqdm(total=len(batches), initial=trainer.steps, desc="sft steps") as bar,
    ):
        for step in range(trainer.steps, len(batches)):
            stats = trainer.step([(sequences[i], 1.0) for i in batches[step]], prefix)
            seconds += stats.seconds
            suffix_tokens += stats.suffix_tokens
            trained_tokens += stats.trained_tokens
            sink.write(json.dumps({"step": trainer.steps, **stats.__dict__}) + "\n")
            sink.flush()
            bar.update(1)
            tags = "-" if stats.row_token_nll is None else f"{stats.row_token_nll:.2f}"
            bar.set_postfix(
                loss=f"{stats.loss:.3f}", tag_nll=tags, tok_s=f"{stats.tokens_per_second:.0f}"
            )
            if trainer.steps % settings.checkpoint_every == 0 or trainer.steps == len(batches):
                trainer.save(checkpoint)
    return {
        "episodes": len(sequences),
        "steps": len(batches),
        "shared_prefix_tokens": prefix,
        "mean_tokens_per_episode": round(sum(len(s.ids) for s in sequences) / len(sequences), 1),
        "mean_trained_tokens_per_episode": round(
            sum(s.trained for s in sequences) / len(sequences), 1
        ),
        "seconds_this_run": round(seconds, 1),
        "suffix_tokens_per_second_this_run": round(suffix_tokens / seconds, 1) if seconds else None,
        "trained_tokens_this_run": trained_tokens,
    }
