"""The equal-compute imitation control: more SFT on expert replays of the rows EI sampled.

Expert iteration is itself imitation (of the model's own best samples), so a gain of EI over
SFT cannot be put on the reward without an arm that gets the same training compute from
imitation alone. The ``control`` stage is that arm. For each EI round ``i`` it:

* reads the round's record (``ei/iter-<i>/done.json``): the train rows EI rolled out on, its
  optimizer steps, and its trained tokens, recomputed exactly from the round's rollout journal
  (:func:`ei_round_target`; the digest of the recomputed sequences must equal the one EI
  recorded, so the control matches the data EI really trained on);
* builds one expert episode per row with the ``sft-data`` generator (``bs4_env.sft.build``),
  seeded like the warm start's data, so the episode kinds come in the warm start's mix
  (targeted, bound reference, abstention; some with a first try that fails and is fixed);
* orders them with a seeded shuffle and takes episodes until their trained (assistant) tokens
  match EI's within ``token_tolerance`` (:func:`select_episodes`: fewer episodes than rows when
  expert episodes are longer, the shuffled pool again when they are shorter), spread over
  exactly EI's number of optimizer steps;
* fine-tunes with EI's LoRA settings, learning rate and loss (token-level NLL, weight 1),
  starting from the SFT adapter (round 1) or the previous control round (later rounds), each
  round with a fresh optimizer, as EI does.

The batch is matched in trained tokens per step, not in episodes: an expert episode carries
about 1.7 times the trained tokens of an EI sequence (run 3: 301 against 180), so equal steps
and equal tokens leave fewer episodes per step. Everything is recorded per round in
``control/round-<i>/done.json`` and in the stage marker: rows, steps, tokens, the ratio to EI,
the episodes' kinds and a sha256 of the data. Each round resumes like the SFT stage.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any

from bs4_lab.ei_stage import DONE, JOURNAL, keep_best, kept_sequences, sequences_digest
from bs4_lab.render import Sequence_

if TYPE_CHECKING:
    from bs4_lab.run import Run
    from bs4_lab.trainer import LoraTrainer

FOLDER = "control"


@dataclass(frozen=True)
class RoundTarget:
    """What one EI round trained on, which the control round matches."""

    index: int
    rows: list[tuple[str, int]]
    steps: int
    sequences: int
    trained_tokens: int


def _ordered_records(folder: Path, done: dict[str, Any], samples: int) -> list[dict[str, Any]]:
    """The round's journaled rollouts in the order EI kept from (rows, then samples)."""
    records = {}
    for line in (folder / JOURNAL).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records[f"{record['archetype']}/{record['seed']}", record["sample"]] = record
    return [records[row, k] for row in done["rows"] for k in range(samples)]


def ei_round_target(run: Run, index: int, tokenizer: Any) -> RoundTarget:
    """EI round ``index``'s rows, steps and trained tokens (recomputed from its journal)."""
    folder = run.out / "ei" / f"iter-{index}"
    if not (folder / DONE).is_file():
        raise ValueError(f"{folder / DONE} is missing: the control needs EI round {index} first")
    done = json.loads((folder / DONE).read_text())
    records = _ordered_records(folder, done, run.settings.ei.samples_per_row)
    kept = keep_best(records, run.settings.ei.keep_per_row)
    sequences, _ = kept_sequences(tokenizer, kept, run.settings.sft.max_tokens)
    if sequences_digest(sequences) != done["sequences_sha256"]:
        raise ValueError(
            f"{folder}: the kept sequences rebuilt from {JOURNAL} differ from those EI trained"
            " on (sha256 mismatch): the round's journal or the tokenizer changed"
        )
    rows = [(a, int(s)) for a, s in (row.rsplit("/", 1) for row in done["rows"])]
    return RoundTarget(
        index, rows, int(done["train"]["steps"]), len(sequences), sum(s.trained for s in sequences)
    )


def select_episodes(trained: list[int], target: int, steps: int) -> list[int]:
    """Positions in ``trained`` (a shuffled pool's trained tokens) whose sum is closest to
    ``target``, taken in pool order (again from the start when the pool runs out), at least
    ``steps`` of them (each step needs one episode). Where the running sum crosses the target,
    the last episode is the one of the rest of this pass that lands closest (or none)."""
    if steps == 0:
        return []
    if not trained or min(trained) < 1:
        raise ValueError("the control needs expert episodes with trained tokens")
    chosen: list[int] = []
    total, position = 0, 0
    while total < target or len(chosen) < steps:
        pool_index = position % len(trained)
        if total + trained[pool_index] > target and len(chosen) + 1 >= steps:
            rest = range(pool_index, len(trained))
            best = min(rest, key=lambda i: (abs(total + trained[i] - target), i))
            if len(chosen) >= steps and abs(total - target) <= abs(total + trained[best] - target):
                break
            chosen.append(best)
            total += trained[best]
            break
        chosen.append(pool_index)
        total += trained[pool_index]
        position += 1
    return chosen


def batches_of(count: int, steps: int) -> list[list[int]]:
    """``count`` positions split into ``steps`` contiguous batches whose sizes differ by <= 1."""
    each, extra = divmod(count, steps)
    batches, start = [], 0
    for step in range(steps):
        size = each + (step < extra)
        batches.append(list(range(start, start + size)))
        start += size
    return batches


def train_batches(
    trainer: LoraTrainer,
    sequences: list[Sequence_],
    batches: list[list[int]],
    checkpoint: Path,
    log: Path,
    checkpoint_every: int,
) -> dict[str, Any]:
    """Run (or finish) one optimizer step per batch, checkpointing like the SFT stage."""
    from bs4_lab.render import shared_prefix_length

    prefix = shared_prefix_length(sequences)
    log.parent.mkdir(parents=True, exist_ok=True)
    if checkpoint.is_dir():
        trainer.load(checkpoint)
    seconds, suffix_tokens = 0.0, 0
    with log.open("a", encoding="utf-8") as sink:
        for step in range(trainer.steps, len(batches)):
            stats = trainer.step([(sequences[i], 1.0) for i in batches[step]], prefix)
            seconds += stats.seconds
            suffix_tokens += stats.suffix_tokens
            sink.write(json.dumps({"step": trainer.steps, **stats.__dict__}) + "\n")
            sink.flush()
            if trainer.steps % checkpoint_every == 0 or trainer.steps == len(batches):
                trainer.save(checkpoint)
    return {
        "steps": len(batches),
        "shared_prefix_tokens": prefix,
        "seconds_this_run": round(seconds, 1),
        "suffix_tokens_per_second_this_run": round(suffix_tokens / seconds, 1) if seconds else None,
    }


async def expert_episodes(run: Run, rows: list[tuple[str, int]], folder: Path) -> Path:
    """One ``sft-data`` episode per row (written once; a rerun reuses the file)."""
    from bs4_env.episode.executors import make_executor
    from bs4_env.sft.build import DATA_FILE, SUMMARY_FILE, generate
    from bs4_env.tasks.splits import Row

    if not (folder / SUMMARY_FILE).is_file():
        # The warm start's seed: each row's episode kind is drawn as the warm start's are.
        async with make_executor("local", concurrency=2) as executor:
            await generate(
                [Row(a, s, "train") for a, s in rows],
                run.registry,
                executor,
                folder,
                run.settings.plan.seed,
            )
    return folder / DATA_FILE


async def _round(run: Run, index: int) -> dict[str, Any]:
    from bs4_env.sft.build import SUMMARY_FILE
    from bs4_lab.sft_stage import rendered_episodes
    from bs4_lab.token_rows import tag_ids
    from bs4_lab.trainer import LoraTrainer

    model, tokenizer = run.model()
    target = ei_round_target(run, index, tokenizer)
    folder = run.out / FOLDER / f"round-{target.index}"
    previous = (
        run.out / FOLDER / f"round-{target.index - 1}" if target.index > 1 else run.out / "sft"
    )
    data = await expert_episodes(run, target.rows, folder / "data")
    pool, records, dropped = rendered_episodes(tokenizer, data, run.settings.sft.max_tokens)
    shuffled = list(range(len(pool)))
    Random(f"control-order:{run.settings.plan.seed}:{target.index}").shuffle(shuffled)
    picks = select_episodes(
        [pool[i].trained for i in shuffled], target.trained_tokens, target.steps
    )
    chosen = [shuffled[p] for p in picks]
    sequences = [pool[i] for i in chosen]
    trainer = LoraTrainer(model, run.settings.ei_train, tag_ids(tokenizer))
    checkpoint = folder / "checkpoint"
    if not checkpoint.is_dir():
        trainer.load(previous / "checkpoint", adapter_only=True)
    train: dict[str, Any] = {"steps": 0, "note": "EI trained no step this round: nor does this"}
    if sequences:
        batches = batches_of(len(sequences), target.steps)
        every = run.settings.sft.checkpoint_every
        train = train_batches(
            trainer, sequences, batches, checkpoint, folder / "train-log.jsonl", every
        )
        train["episodes_per_step"] = [len(b) for b in batches]
    else:
        trainer.save(checkpoint)
    trainer.export_adapter(folder / "adapter.gguf")
    tokens = sum(s.trained for s in sequences)
    ratio = round(tokens / target.trained_tokens, 4) if target.trained_tokens else None
    kinds: dict[str, int] = {}
    for i in chosen:
        kinds[records[i]["kind"]] = kinds.get(records[i]["kind"], 0) + 1
    figures = {
        "round": target.index,
        "trained_from": str(previous / "checkpoint"),
        "rows": [f"{a}/{s}" for a, s in target.rows],
        "expert_episodes": len(pool),
        "expert_summary": json.loads((folder / "data" / SUMMARY_FILE).read_text()),
        "expert_data_sha256": hashlib.sha256(data.read_bytes()).hexdigest(),
        "dropped": dropped,
        "episodes": len(sequences),
        "distinct_episodes": len(set(chosen)),
        "episode_rows": [f"{records[i]['archetype']}/{records[i]['seed']}" for i in chosen],
        "kinds": dict(sorted(kinds.items())),
        "ei": {
            "steps": target.steps,
            "sequences": target.sequences,
            "trained_tokens": target.trained_tokens,
        },
        "trained_tokens": tokens,
        "token_ratio_to_ei": ratio,
        "within_tolerance": ratio is None
        or abs(ratio - 1.0) <= run.settings.control.token_tolerance,
        "sequences_sha256": sequences_digest(sequences),
        "train": train,
    }
    (folder / DONE).write_text(json.dumps(figures, indent=1) + "\n")
    return figures


async def run_control(run: Run) -> dict[str, Any]:
    """Every control round in order (finished ones read back); returns the stage's figures."""
    rounds = []
    for index in range(1, run.settings.ei.iterations + 1):
        done = run.out / FOLDER / f"round-{index}" / DONE
        if done.is_file():
            rounds.append(json.loads(done.read_text()))
            continue
        rounds.append(await _round(run, index))
    last = run.out / FOLDER / f"round-{run.settings.ei.iterations}"
    shutil.copyfile(last / "adapter.gguf", run.adapter_gguf(FOLDER))
    if run.checkpoint(FOLDER).exists():
        shutil.rmtree(run.checkpoint(FOLDER))
    shutil.copytree(last / "checkpoint", run.checkpoint(FOLDER))
    ei_tokens = sum(r["ei"]["trained_tokens"] for r in rounds)
    tokens = sum(r["trained_tokens"] for r in rounds)
    return {
        "rounds": [
            {k: v for k, v in r.items() if k not in ("rows", "episode_rows")} for r in rounds
        ],
        "rows": [row for r in rounds for row in r["rows"]],
        "episode_rows": [row for r in rounds for row in r["episode_rows"]],
        "steps": sum(r["train"]["steps"] for r in rounds),
        "ei_steps": sum(r["ei"]["steps"] for r in rounds),
        "trained_tokens": tokens,
        "ei_trained_tokens": ei_tokens,
        "token_ratio_to_ei": round(tokens / ei_tokens, 4) if ei_tokens else None,
        "sequences_sha256": [r["sequences_sha256"] for r in rounds],
        "expert_data_sha256": [r["expert_data_sha256"] for r in rounds],
    }
