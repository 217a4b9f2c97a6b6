"""``bs4-env sft-data``: supervised warm-start episodes of the train split (docs/warm-start.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

from bs4_env.episode.executors import EXECUTOR_KINDS, make_executor
from bs4_env.sft.build import DATA_FILE, SUMMARY_FILE, generate
from bs4_env.sft.mix import Mix, parse_mix
from bs4_env.sft.real_pages import REAL_TRAIN, append_real_episodes
from bs4_env.sft.rows import BALANCES, select_archetypes, sft_rows
from bs4_env.tasks.registry import default_registry


def _ids(value: str) -> list[str]:
    return [part for part in value.replace(",", " ").split() if part]


def add_sft_data_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=Path("outputs/sft-data"), help="folder")
    parser.add_argument("-n", "--num-episodes", type=int, default=3000, help="rows to try")
    parser.add_argument("--seed", type=int, default=0, help="draws rows and styles")
    parser.add_argument("--archetypes", type=_ids, help="only these ids (comma-separated)")
    parser.add_argument("--exclude-archetypes", type=_ids, help="hold these ids out")
    parser.add_argument("--balance", choices=BALANCES, default="archetype")
    parser.add_argument("--concurrency", type=int, default=4, help="sandbox workers")
    parser.add_argument("--executor", choices=EXECUTOR_KINDS, default="local")
    parser.add_argument(
        "--real-episodes",
        type=int,
        default=0,
        help="also try this many expert episodes on real training pages (default 0: none)",
    )
    parser.add_argument(
        "--real-pages",
        default=REAL_TRAIN,
        help=f"the page set whose training part they come from (default {REAL_TRAIN}; "
        "a rows file uses its #train part; pages fetched first: bs4-env real fetch)",
    )
    default = Mix()
    parser.add_argument(
        "--mix",
        default=f"recovery={default.recovery},budget={default.budget},defensive={default.defensive}",
        help="shares of rows by episode kind, KIND=SHARE,...; normal gets the rest",
    )
    parser.add_argument(
        "--budget-calls",
        type=lambda v: [int(p) for p in _ids(v)],
        default=list(default.budget_calls),
        help="tool-call budgets the budget episodes run under (comma-separated)",
    )


async def _run(args: argparse.Namespace) -> int:
    registry = default_registry()
    ids = select_archetypes(registry, args.archetypes, args.exclude_archetypes)
    rows = sft_rows(registry, ids, args.num_episodes, args.seed, args.balance)
    mix = parse_mix(args.mix, args.budget_calls)
    started = time.monotonic()
    async with make_executor(args.executor, concurrency=args.concurrency) as executor:
        await generate(rows, registry, executor, args.out, args.seed, mix)
        real = None
        if args.real_episodes > 0:
            real = await append_real_episodes(
                args.real_pages, args.real_episodes, args.seed, executor, args.out / DATA_FILE
            )
    summary = json.loads((args.out / SUMMARY_FILE).read_text())
    seconds = time.monotonic() - started
    print(
        f"kept {summary['kept']} of {len(rows)} episodes, dropped {summary['dropped']} "
        f"(no plan replayed to the best reward) in {seconds:.0f} s"
    )
    print(f"kinds: {json.dumps(summary['kinds'])}")
    report = summary["mix"]
    print(
        f"episode kinds kept: {json.dumps(report['kept'])}, shares "
        f"{json.dumps(report['kept_shares'])} (requested {json.dumps(report['requested_shares'])}"
        f"; short of rows: {json.dumps(report['short'])})"
    )
    print(f"dropped by archetype: {json.dumps(summary['dropped_by_archetype'])}")
    if real is not None:
        summary["real_pages"] = real.as_dict(args.real_pages)
        (args.out / SUMMARY_FILE).write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
        kept, tried = (
            summary["real_pages"]["kept"],
            summary["real_pages"]["kept"] + summary["real_pages"]["dropped"],
        )
        print(f"real pages: kept {kept} of {tried} tried ({json.dumps(real.kept)})")
    print(f"wrote {args.out / DATA_FILE} and {args.out / SUMMARY_FILE}")
    return 0


def cmd_sft_data(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))
