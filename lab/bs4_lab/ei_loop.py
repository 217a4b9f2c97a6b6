"""The expert-iteration stage's loop: sample, keep the best, fine-tune, for each iteration.

Iteration ``i`` lives in ``<out>/ei/iter-<i>/``: ``rollouts.jsonl`` (the journal of sampled
rollouts), ``checkpoint/`` and ``train-log.jsonl`` (the fine-tune, resumable like SFT),
``adapter.gguf`` and ``done.json`` (its figures). Iteration 1 samples from the SFT adapter and
fine-tunes from its weights; each later one from the iteration before. The last iteration's
adapter and checkpoint become the stage's (``<out>/ei/adapter.gguf``, ``<out>/ei/checkpoint``).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from typing import Any

from bs4_lab.ei_stage import (
    DONE,
    JOURNAL,
    iteration_rows,
    keep_best,
    kept_sequences,
    sample_rollouts,
    sampling_figures,
    sequences_digest,
)
from bs4_lab.run import Run


async def _iteration(run: Run, index: int, rows: list[tuple[str, int]]) -> dict[str, Any]:
    from bs4_lab.sft_stage import train_sft
    from bs4_lab.token_rows import tag_ids
    from bs4_lab.trainer import LoraTrainer

    settings = run.settings.ei
    folder = run.out / "ei" / f"iter-{index}"
    previous = run.out / "ei" / f"iter-{index - 1}" if index > 1 else run.out / "sft"
    folder.mkdir(parents=True, exist_ok=True)
    server = run.settings.evaluation.server(
        run.base_gguf(), previous / "adapter.gguf", folder / "server.log"
    )
    async with server:
        records = await sample_rollouts(
            server,
            rows,
            settings,
            run.settings.evaluation,
            folder / JOURNAL,
            run.settings.progress,
        )
    kept = keep_best(records, settings.keep_per_row)
    model, tokenizer = run.model()
    sequences, dropped = kept_sequences(tokenizer, kept, run.settings.sft.max_tokens)
    trainer = LoraTrainer(model, run.settings.ei_train, tag_ids(tokenizer))
    checkpoint = folder / "checkpoint"
    if not checkpoint.is_dir():
        trainer.load(previous / "checkpoint", adapter_only=True)
    train: dict[str, Any] = {"steps": 0, "note": "nothing kept: the adapter is unchanged"}
    if sequences:
        sft = replace(run.settings.sft, episodes_per_step=settings.episodes_per_step)
        seed = run.settings.plan.seed * 1000 + index
        train = train_sft(trainer, sequences, sft, seed, checkpoint, folder / "train-log.jsonl")
    else:
        trainer.save(checkpoint)
    trainer.export_adapter(folder / "adapter.gguf")
    figures = {
        "iteration": index,
        "sampled_from": str(previous / "adapter.gguf"),
        "rows": [f"{a}/{s}" for a, s in rows],
        **sampling_figures(records, kept),
        "sequences": len(sequences),
        "sequences_sha256": sequences_digest(sequences),
        "dropped": dropped,
        "train": train,
    }
    (folder / DONE).write_text(json.dumps(figures, indent=1) + "\n")
    return figures


async def run_iterations(run: Run, excluded: set[tuple[str, int]]) -> dict[str, Any]:
    """Every iteration in order (finished ones read back); returns the stage's figures."""
    settings = run.settings.ei
    if settings.iterations < 1 or settings.samples_per_row < 2 or settings.keep_per_row < 1:
        raise ValueError(
            "expert iteration needs iterations >= 1, samples_per_row >= 2 and keep_per_row >= 1,"
            f" got {settings}"
        )
    seen = set(excluded)
    iterations = []
    for index in range(1, settings.iterations + 1):
        rows = iteration_rows(
            run.plan.trained, index, settings.rows_per_archetype, run.settings.plan.seed, seen
        )
        seen |= set(rows)
        done = run.out / "ei" / f"iter-{index}" / DONE
        if done.is_file():
            iterations.append(json.loads(done.read_text()))
            continue
        iterations.append(await _iteration(run, index, rows))
    last = run.out / "ei" / f"iter-{settings.iterations}"
    shutil.copyfile(last / "adapter.gguf", run.adapter_gguf("ei"))
    if run.checkpoint("ei").exists():
        shutil.rmtree(run.checkpoint("ei"))
    shutil.copytree(last / "checkpoint", run.checkpoint("ei"))
    return {
        "iterations": [
            {k: v for k, v in it.items() if k not in ("rows", "kept_rows")} for it in iterations
        ],
        "rollouts": sum(it["rollouts"] for it in iterations),
        "kept": sum(it["kept"] for it in iterations),
        "rows": [row for it in iterations for row in it["rows"]],
        "kept_rows": [row for it in iterations for row in it["kept_rows"]],
    }
