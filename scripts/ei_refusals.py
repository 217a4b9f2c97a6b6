"""How expert iteration's rounds met the tool-budget refusal, from their rollout journals.

For each ``ei/iter-N/rollouts.jsonl`` of a learning run: the rollouts, those in which the
engine's budget refusal arrived, how many of those scored above 0, how many answered after it
(``bs4_lab.real_measures.budget_heeded``), and the rollouts the round kept (the lab's own
``keep_best``, so the same rows as the round's ``done.json``) with how many of them held the
refusal. It shows whether EI could learn anything about the refusal: a kept rollout is the
only thing a round trains on. Exploratory, read from committed journals; needs the lab.

    python scripts/ei_refusals.py [--keep 2] ROLLOUTS.jsonl [ROLLOUTS.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bs4_lab.ei_stage import keep_best
from bs4_lab.real_measures import budget_heeded, met_budget_refusal


def journal(path: Path) -> list[dict[str, Any]]:
    """The rollouts of one round's journal; refuses a line that is not a rollout record."""
    records = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ValueError(f"{path}: cannot read ({error})") from error
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}:{number}: not JSON ({error})") from error
        if not isinstance(record, dict) or not isinstance(record.get("history"), list):
            raise ValueError(f"{path}:{number}: not an EI rollout (no history list)")
        for key in ("reward", "best"):
            if not isinstance(record.get(key), int | float):
                raise ValueError(f"{path}:{number}: {key} is not a number")
        records.append(record)
    if not records:
        raise ValueError(f"{path}: no rollouts")
    return records


def round_figures(records: list[dict[str, Any]], keep: int) -> dict[str, int]:
    """The counts above for one round."""
    episodes = [{"transcript": r["history"]} for r in records]
    refused = [r for r, e in zip(records, episodes, strict=True) if met_budget_refusal(e)]
    kept = keep_best(records, keep)
    return {
        "rollouts": len(records),
        "met_refusal": len(refused),
        "met_refusal_scored": sum(float(r["reward"]) > 0 for r in refused),
        "answered_after_refusal": sum(budget_heeded(e) is True for e in episodes),
        "kept": len(kept),
        "kept_with_refusal": sum(met_budget_refusal({"transcript": r["history"]}) for r in kept),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("journals", nargs="+", type=Path, help="ei/iter-N/rollouts.jsonl")
    parser.add_argument("--keep", type=int, default=2, help="the run's --ei-keep (default 2)")
    args = parser.parse_args(argv)
    if args.keep < 1:
        parser.error("--keep must be at least 1")
    try:
        figures = {str(path): round_figures(journal(path), args.keep) for path in args.journals}
    except ValueError as error:
        print(f"ei_refusals: {error}", file=sys.stderr)
        return 2
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
