"""Fill the page cache for ``real``, ``real2`` and ``real2``'s training part on a machine that
cannot reach GitHub, from the pinned archives (../shared/real-pages): the needed files are
unpacked into a temporary folder, served on loopback the way raw GitHub serves them, and
fetched by ``bs4-env real fetch`` itself (sha256-verified, like any fetch).

    python scripts/fetch_real_from_archives.py [--cache DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bs4_env.cli.main import main as bs4_env_main
from bs4_env.pages.rows import read_rows
from bs4_env.pages.sets import REAL2_ROWS, REAL2_TRAIN_ROWS, REAL_ROWS
from tests.real_pages import RawServer, missing_reason, unpack


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cache", type=Path, help="page cache (default: the usual one)")
    args = parser.parse_args()
    reason = missing_reason()
    if reason:
        print(reason, file=sys.stderr)
        return 2
    files = (REAL_ROWS, REAL2_ROWS, REAL2_TRAIN_ROWS)
    sources = {row.source for path in files for row in read_rows(path) if row.source}
    with tempfile.TemporaryDirectory() as folder:
        unpack(sources, Path(folder))
        with RawServer(Path(folder)) as server:
            for pages in (str(path) for path in files):
                argv = ["real", "fetch", "--pages", pages, "--base-url", server.base_url]
                argv += ["--cache", str(args.cache)] if args.cache else []
                if bs4_env_main(argv) != 0:
                    return 1
            return 0


if __name__ == "__main__":
    sys.exit(main())
