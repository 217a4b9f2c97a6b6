"""Page sizes of ``real`` and the time of one parse per parser per page through the sandbox.

    python scripts/bench_real_pages.py [--pages real] [--parsers html.parser,lxml,html5lib]

Every distinct page of the set runs ``make_soup(parser)`` in the local sandbox at the default
budget (one ``run_python`` call per page and parser, through ``Episode``), and the same with
``BeautifulSoup(HTML.encode(), parser)``; prints page-size quantiles, per-parser call times
(median, p90, max), timeouts and infrastructure errors, and the generated bench's page sizes
measured in the same run as the baseline. Fetch the pages first (``bs4-env real fetch``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from typing import Any

from bs4_env.episode.engine import Budgets, Episode
from bs4_env.episode.executors import make_executor
from bs4_env.pages.sets import page_set
from bs4_env.sandbox.base import PARSERS
from bs4_env.tasks.manifest import load_manifest
from bs4_env.tasks.registry import build_task

PROGRAMS = {
    "make_soup": "soup = make_soup({parser!r})\nprint(len(soup.get_text()))",
    "encoded": (
        "from bs4 import BeautifulSoup\n"
        "soup = BeautifulSoup(HTML.encode(), {parser!r})\nprint(len(soup.get_text()))"
    ),
}


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 3),
        "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 3),
        "max": round(ordered[-1], 3),
    }


async def run(
    pages: str, parsers: list[str], concurrency: int, only: set[str] | None = None
) -> dict[str, Any]:
    loaded = page_set(pages)
    first_of_page: dict[str, int] = {}
    for index, row in enumerate(loaded.rows):
        if only is None or row.row.id in only:
            first_of_page.setdefault(row.row.sha256 or row.row.id, index)
    sizes = [loaded.rows[i].page_bytes for i in first_of_page.values()]
    bench = [len(build_task(r.archetype_id, r.seed, r.split).html.encode()) for r in
             load_manifest().rows]  # fmt: skip
    budgets = Budgets()
    times: dict[str, list[float]] = {}
    slowest: dict[str, tuple[float, str]] = {}
    timeouts: dict[str, int] = {}
    infra: dict[str, int] = {}
    gate = asyncio.Semaphore(concurrency)
    async with make_executor("local", pool_size=concurrency) as executor:

        async def one(index: int, parser: str, kind: str) -> None:
            task = loaded.task(index)
            async with gate:
                episode = Episode(task, executor, budgets)
                await episode.run_python(PROGRAMS[kind].format(parser=parser))
            result = episode.last_result
            key = f"{kind}:{parser}"
            if result is None:
                raise RuntimeError("no result")
            times.setdefault(key, []).append(result.duration_s)
            if result.duration_s > slowest.get(key, (0.0, ""))[0]:
                slowest[key] = (round(result.duration_s, 3), task.row_id or "")
            timeouts[key] = timeouts.get(key, 0) + int(result.timed_out)
            infra[key] = infra.get(key, 0) + int(result.infra_error is not None)

        started = time.perf_counter()
        await asyncio.gather(
            *(
                one(index, parser, kind)
                for index in first_of_page.values()
                for parser in parsers
                for kind in PROGRAMS
            )
        )
        wall = time.perf_counter() - started
    return {
        "pages": len(sizes),
        "rows": len(loaded),
        "timeout_s": budgets.timeout_s,
        "page_bytes": quantiles([float(s) for s in sizes]),
        "bench_page_bytes": quantiles([float(s) for s in bench]),
        "size_ratio_median": round(statistics.median(sizes) / statistics.median(bench), 2),
        "call_s": {key: quantiles(values) for key, values in sorted(times.items())},
        "slowest": dict(sorted(slowest.items())),
        "timeouts": dict(sorted(timeouts.items())),
        "infra_errors": dict(sorted(infra.items())),
        "wall_s": round(wall, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", default="real")
    parser.add_argument("--parsers", default=",".join(PARSERS))
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--rows", help="comma-separated row ids: only their pages")
    args = parser.parse_args()
    only = set(args.rows.split(",")) if args.rows else None
    figures = asyncio.run(run(args.pages, args.parsers.split(","), args.concurrency, only))
    print(json.dumps(figures, indent=1))
    failed = sum(figures["timeouts"].values()) + sum(figures["infra_errors"].values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
