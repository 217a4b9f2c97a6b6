"""``bs4-env real fetch``: download the pages of ``real`` (or of any rows file naming upstream
sources) into the page cache, sha256-verified, resumable, with a progress bar.

Exit status: 0 every page is cached; 1 some could not be fetched (each is listed; a rerun
fetches only those); 2 bad arguments or rows.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bs4_env.pages.cache import CACHE_VARIABLE, cache_root
from bs4_env.pages.fetch import BASE_VARIABLE, RAW_BASE, fetch_pages
from bs4_env.pages.rows import read_rows
from bs4_env.pages.sets import REAL, REAL2, rows_path


def add_real_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="real_command", required=True)
    fetch = sub.add_parser("fetch", help="download the pinned pages into the page cache")
    fetch.add_argument(
        "--pages",
        default=REAL,
        help=f"'{REAL}' (default), '{REAL2}', '{REAL2}#train' or a rows file with sources",
    )
    fetch.add_argument(
        "--base-url",
        help=f"where files are served as <base>/<owner>/<repo>/<commit>/<path> (default: "
        f"${BASE_VARIABLE}, else {RAW_BASE})",
    )
    fetch.add_argument(
        "--cache", type=Path, help=f"cache folder (default: ${CACHE_VARIABLE} or ~/.cache/bs4-env)"
    )
    fetch.add_argument("--jobs", "-j", type=int, default=8, help="downloads at once")
    fetch.add_argument("--quiet", action="store_true", help="no progress bar")


def cmd_real(args: argparse.Namespace) -> int:
    rows = read_rows(rows_path(args.pages))
    root = args.cache or cache_root()
    report = fetch_pages(rows, args.base_url, root, args.jobs, progress=not args.quiet)
    print(
        f"pages: {len(report.fetched)} fetched, {len(report.cached)} already cached, "
        f"{len(report.failed)} failed -> {root / 'pages'}"
    )
    for failure in report.failed:
        print(f"  {failure}", file=sys.stderr)
    if report.failed:
        print("rerun the same command to fetch the missing pages", file=sys.stderr)
        return 1
    return 0
