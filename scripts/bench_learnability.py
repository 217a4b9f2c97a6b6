"""Can a small real model climb the curriculum? Per-archetype reward spread on one mode.

Runs a model behind any OpenAI-compatible endpoint over the rows of one mode (default: the
``bootstrap`` mode, primer + easy archetypes, on the bench split) ``--samples`` times and
prints, per archetype: rollouts, mean reward, pass rate, the share of rollouts that called a
tool and sent a well-formed final answer, and the share of rows whose sampled group has a
reward spread (not all equal). An RL trainer learns nothing from a group of rollouts that all
score the same, so that last column is the one a curriculum's bottom rung must lift.

    ../shared/tools/local-model-serve.sh 1.5b 8000
    LOCAL_KEY=x python scripts/bench_learnability.py --model qwen2.5-coder-1.5b-instruct \\
        --base-url http://127.0.0.1:8000/v1 --api-key-var LOCAL_KEY -n 20 --samples 2
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from bs4_env.episode.executors import make_executor
from bs4_env.evaluation.openai_policy import OpenAIChatPolicy, resolve_endpoint
from bs4_env.evaluation.runner import evaluate
from bs4_env.tasks.modes import MODES, DatasetConfig, build_rows


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--base-url")
    parser.add_argument("--api-key-var")
    parser.add_argument("--mode", default="bootstrap", choices=MODES)
    parser.add_argument("--split", default="bench", choices=("train", "eval", "bench"))
    parser.add_argument("-n", "--num", type=int, default=20, help="rows (bench: manifest prefix)")
    parser.add_argument("--samples", type=int, default=1, help="rollouts per row")
    parser.add_argument("--temperature", type=float, help="default 0 for 1 sample, else 0.7")
    parser.add_argument("--max-tokens", type=int, default=1024)
    parser.add_argument("--concurrency", "-c", type=int, default=1)
    parser.add_argument("--output", type=Path, default=Path("outputs/learnability"))
    args = parser.parse_args()
    if args.temperature is None:
        args.temperature = 0.0 if args.samples == 1 else 0.7
    if args.samples > 1 and args.temperature == 0:
        parser.error("several samples per row need --temperature > 0 to differ")
    return args


def _table(records: list[dict[str, Any]]) -> str:
    by_archetype: dict[str, list[dict[str, Any]]] = defaultdict(list)
    groups: dict[tuple[str, int], list[float]] = defaultdict(list)
    for record in records:
        by_archetype[record["archetype"]].append(record)
        if "reward" in record and record.get("error") is None:
            groups[(record["archetype"], record["seed"])].append(float(record["reward"]))
    head = (
        f"{'archetype':28} {'n':>4} {'mean':>6} {'pass':>6} {'tool':>6} {'format':>7} {'spread':>7}"
    )
    lines = [head]
    for name, rows in sorted(by_archetype.items()):
        scored = [r for r in rows if "reward" in r and r.get("error") is None]
        rewards = [float(r["reward"]) for r in scored]
        tool = [r["components"].get("tool_calls", 0) > 0 for r in scored]
        fmt = [r["components"].get("format_ok", 0) > 0 for r in scored]
        mine = [g for (a, _), g in groups.items() if a == name]
        spread = [len(set(g)) > 1 for g in mine if len(g) > 1]
        lines.append(
            f"{name:28} {len(rows):4d} {statistics.fmean(rewards) if rewards else 0:6.3f} "
            f"{sum(x >= 0.5 for x in rewards) / max(1, len(rewards)):6.1%} "
            f"{sum(tool) / max(1, len(tool)):6.1%} {sum(fmt) / max(1, len(fmt)):7.1%} "
            f"{(f'{sum(spread) / len(spread):7.1%}') if spread else '    n/a'}"
        )
    errors = sum(1 for r in records if r.get("error") is not None)
    lines.append(f"rollouts {len(records)}, endpoint errors {errors}")
    return "\n".join(lines)


async def _main(args: argparse.Namespace) -> None:
    rows = build_rows(DatasetConfig(split=args.split, mode=args.mode, num_examples=args.num))
    endpoint = resolve_endpoint(args.base_url, args.api_key_var)
    policy = OpenAIChatPolicy(args.model, endpoint, args.max_tokens, args.temperature)
    records: list[dict[str, Any]] = []
    header = {"model": args.model, "split": args.split, "mode": args.mode}
    async with make_executor("local") as executor:
        for sample in range(args.samples):
            output = args.output / f"{args.model.replace('/', '_')}-{args.mode}-s{sample}.json"
            results = await evaluate(
                rows,
                lambda _task: policy,
                executor,
                output,
                {**header, "sample": sample, "temperature": args.temperature},
                concurrency=args.concurrency,
            )
            records.extend(results["rollouts"])
    await policy.aclose()
    print(_table(records))


if __name__ == "__main__":
    asyncio.run(_main(_parse()))
