"""``bs4-env check`` (solvability proof) and ``bs4-env manifest`` (bench manifest)."""

from __future__ import annotations

import argparse
import asyncio

from bs4_env.checks.solvability import check_archetype
from bs4_env.episode.executors import make_executor
from bs4_env.tasks.manifest import MANIFEST_PATH, build_manifest, load_manifest, write_manifest
from bs4_env.tasks.registry import default_registry
from bs4_env.tasks.splits import SPLIT_BASES, seed_for


async def _check(args: argparse.Namespace) -> int:
    registry = default_registry()
    ids = [args.archetype] if args.archetype else list(registry.ids())
    for archetype_id in ids:
        registry.get(archetype_id)
    splits = [args.split] if args.split else list(SPLIT_BASES)
    misses = 0
    async with make_executor(args.executor) as executor:
        for archetype_id in ids:
            for split in splits:
                seeds = [seed_for(split, i) for i in range(args.seeds)]
                report = await check_archetype(archetype_id, split, seeds, executor, registry)
                misses += len(report.failures)
                mark = "ok  " if not report.failures else "FAIL"
                print(f"{mark} {archetype_id:26} {split:6} {report.passed}/{report.total}")
                for seed, reward, why in report.failures[:3]:
                    print(f"     seed {seed}: reward {reward} ({why})")
    print("all passed" if misses == 0 else f"{misses} failing seeds")
    return 1 if misses else 0


def cmd_check(args: argparse.Namespace) -> int:
    return asyncio.run(_check(args))


def cmd_manifest(args: argparse.Namespace) -> int:
    fresh = build_manifest()
    if args.write:
        write_manifest(fresh)
        print(f"wrote {MANIFEST_PATH} ({fresh.version}, {len(fresh.rows)} rows)")
        return 0
    committed = load_manifest()
    print(f"committed: {committed.version} ({len(committed.rows)} rows)")
    print(f"generated: {fresh.version} ({len(fresh.rows)} rows)")
    if committed != fresh:
        print("the committed manifest is stale: run `bs4-env manifest --write`")
        return 1
    return 0
