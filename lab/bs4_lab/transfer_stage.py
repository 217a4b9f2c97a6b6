"""The ``transfer`` stage: continuous measures on the held-out archetypes for each model.

Verified episodes of every held-out archetype (``transfer_episodes`` each, from the train
split, written by ``sft-data`` and replayed to the best reward; never trained on, since the
archetypes are held out) are scored by NLL under the base model and each tuned adapter that
exists; the eval documents of the held-out and limitation subsets give the row measures
(:mod:`bs4_lab.transfer`). Everything is written to ``<out>/transfer/transfer.json``.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

from bs4_lab.run import Run
from bs4_lab.transfer import compare_nll, load_records, paired_rows, row_measures

# In this order, so that consecutive pairs are sft -> control and control -> ei (run 4's).
TUNED = ("sft", "control", "ei", "rl")
EVAL_FOLDERS = {
    "base": "eval-base",
    "sft": "eval-sft",
    "control": "eval-control",
    "ei": "eval-ei",
    "rl": "eval-rl",
}


def _episodes(run: Run, tokenizer: Any) -> tuple[list[Any], list[str]]:
    from bs4_env.sft.build import DATA_FILE
    from bs4_lab.render import RenderError, render_record

    data = run.out / "transfer-data" / DATA_FILE
    sequences, archetypes = [], []
    for line in data.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        try:
            sequence = render_record(tokenizer, record)
        except RenderError as error:
            raise ValueError(
                f"{data}: episode {record['archetype']}/{record['seed']}: {error}"
            ) from error
        sequences.append(sequence)
        archetypes.append(record["archetype"])
    return sequences, archetypes


async def measure_transfer(run: Run) -> dict[str, Any]:
    from bs4_lab.render import shared_prefix_length
    from bs4_lab.sft_stage import make_episodes
    from bs4_lab.token_rows import tag_ids
    from bs4_lab.trainer import LoraTrainer

    held = run.plan.held_out
    await make_episodes(
        run.registry,
        held,
        run.settings.transfer_episodes * len(held),
        run.settings.plan.seed,
        run.out / "transfer-data",
    )
    model, tokenizer = run.model()
    sequences, archetypes = _episodes(run, tokenizer)
    prefix = shared_prefix_length(sequences)
    # A fresh LoRA (B = 0) and fresh token rows leave the base model's outputs unchanged.
    trainer = LoraTrainer(model, run.settings.sft_train, tag_ids(tokenizer))
    models = ["base"] + [m for m in TUNED if run.done(m)]
    nll: dict[str, list[float]] = {}
    for name in models:
        if name != "base":
            trainer.load(run.checkpoint(name), adapter_only=True)
        nll[name] = [trainer.sequence_nll(s, prefix) for s in sequences]
    evaluated = [m for m in models if run.done(EVAL_FOLDERS[m])]
    records = {
        m: {
            subset: load_records(run.out / EVAL_FOLDERS[m] / f"{subset}-greedy.json")
            for subset in ("held_out", "limitation")
        }
        for m in evaluated
    }
    pairs = [(models[0], m) for m in models[1:]] + list(pairwise(models[1:]))
    nll_pairs = {f"{a} -> {b}": compare_nll(nll[a], nll[b]) for a, b in pairs}
    result = {
        "episodes": len(sequences),
        "episodes_by_archetype": {a: archetypes.count(a) for a in sorted(set(archetypes))},
        "nll_by_episode": {m: [round(v, 6) for v in nll[m]] for m in models},
        "episode_archetypes": archetypes,
        "nll": nll_pairs,
        "rows": {m: {s: row_measures(r) for s, r in records[m].items()} for m in evaluated},
        "rows_paired": {
            f"{a} -> {b}": {
                s: paired_rows(records[a][s], records[b][s]) for s in ("held_out", "limitation")
            }
            for a, b in pairs
            if a in records and b in records
        },
    }
    folder = run.out / "transfer"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "transfer.json").write_text(json.dumps(result, indent=1) + "\n")
    headline = {
        pair: {
            "mean_difference": test["mean_difference"]["mean"],
            "low": test["mean_difference"]["low"],
            "high": test["mean_difference"]["high"],
            "p": test["p_value"],
        }
        for pair, test in nll_pairs.items()
    }
    return {"file": str(folder / "transfer.json"), "episodes": len(sequences), "nll": headline}
