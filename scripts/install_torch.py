"""Install the pinned torch for ``make test`` (the CPU training of the lab in lab/, and its tests).

Only the CPU build is needed, and what pip takes for a bare ``torch==X`` depends on where it
looks: a local wheel folder (pip's ``find-links``; this project's machines keep the CPU
wheel there), PyPI (on Linux x86_64 that is the CUDA build: torch plus the nvidia and cuda
packages, several GB), or the index named by ``--index-url`` (PyTorch's CPU index,
https://download.pytorch.org/whl/cpu, gives the CPU build, a few hundred MB). So, in order:

1. torch X already installed: nothing to do.
2. ``--index-url URL`` given (``make test TORCH_INDEX=URL``): install from there.
3. Otherwise ask pip what it would install (its ``--dry-run --report``) and print every
   file: local ones as such, downloads with their size, the total, and whether it is a CUDA
   build; where torch itself would come from the index, also how to get the CPU build
   instead. Then install (``--dry-run``: print the plan only).

pip installs with ``--no-compile``: byte-compiling every module of torch took ~15 of the
install's ~22 CPU seconds on a fresh venv (6 s without, 2026-12-06), and Python compiles the
modules a process imports on first use anyway.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import urllib.request
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

CPU_INDEX = "https://download.pytorch.org/whl/cpu"
GPU_PACKAGES = ("nvidia", "cuda", "triton")
INSTALL = ("--quiet", "--no-compile")


def _pip(*arguments: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pip", *arguments]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def installed(pinned: str) -> bool:
    try:
        return version("torch").split("+")[0] == pinned
    except PackageNotFoundError:
        return False


def download_plan(requirement: str) -> list[dict[str, Any]]:
    """What ``pip install requirement`` would download: pip's own installation report."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        proc = _pip("install", "--dry-run", "--quiet", "--report", str(report), requirement)
        if proc.returncode != 0:
            raise SystemExit(f"pip cannot resolve {requirement}:\n{proc.stderr.strip()}")
        items: list[dict[str, Any]] = json.loads(report.read_text())["install"]
    return items


def remote_size(url: str) -> int | None:
    """The file's size from the index (a HEAD request); None for local files."""
    if not url.startswith(("http://", "https://")):
        return None
    with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=60) as r:
        length = r.headers.get("Content-Length")
    return int(length) if length else None


def describe(items: list[dict[str, Any]]) -> str:
    """One line per file to download, then the total and what kind of build it is."""
    lines, total = [], 0
    for item in items:
        url = str(item["download_info"]["url"])
        size = remote_size(url)
        total += size or 0
        shown = f"{size / 1e6:9.1f} MB" if size is not None else "    local"
        lines.append(f"  {shown}  {url.rsplit('/', 1)[-1]}")
    names = [str(item["metadata"]["name"]).lower() for item in items]
    gpu = sorted(n for n in names if n.startswith(GPU_PACKAGES))
    kind = f"a CUDA build ({len(gpu)} GPU packages)" if gpu else "no GPU packages"
    lines.append(f"  {total / 1e6:9.1f} MB in all, {len(items)} files: {kind}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("version", help="the pinned torch version, e.g. 2.13.0")
    parser.add_argument("--index-url", help=f"install from this index (CPU: {CPU_INDEX})")
    parser.add_argument("--dry-run", action="store_true", help="print the plan, install nothing")
    args = parser.parse_args()
    requirement = f"torch=={args.version}"
    if installed(args.version):
        print(f"torch {args.version} is installed")
        return 0
    if args.index_url:
        print(f"installing {requirement} from {args.index_url}")
        if args.dry_run:
            return 0
        return _pip("install", *INSTALL, "--index-url", args.index_url, requirement).returncode
    plan = download_plan(requirement)
    torch = next(item for item in plan if str(item["metadata"]["name"]).lower() == "torch")
    local = not str(torch["download_info"]["url"]).startswith(("http://", "https://"))
    where = "a local wheel folder" if local else "the index"
    print(f"{requirement} comes from {where}; pip will install:\n{describe(plan)}", flush=True)
    if not local:
        print(
            "The tests need only the CPU build; for it instead, press Ctrl-C now and run\n"
            f"  make test TORCH_INDEX={CPU_INDEX}",
            flush=True,
        )
    if args.dry_run:
        return 0
    proc = subprocess.run([sys.executable, "-m", "pip", "install", *INSTALL, requirement])
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
