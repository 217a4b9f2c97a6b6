"""``bs4-env configs [list|show ID]``: the prime-rl training configs and what each is for."""

from __future__ import annotations

import argparse
import itertools
import json

from bs4_env.cli.config_budget import episode_budget, source_limits, sources
from bs4_env.cli.config_registry import REPO_ROOT, find_entry, load_registry, load_toml

_COLUMNS = ("id", "kind", "gpus", "hardware", "model", "prime-rl", "version")


def add_configs_arguments(parser: argparse.ArgumentParser) -> None:
    """``configs list [--json]`` and ``configs show ID``."""
    sub = parser.add_subparsers(dest="configs_command", required=True)
    p_list = sub.add_parser("list", help="every config in configs/registry.json")
    p_list.add_argument("--json", action="store_true", help="the registry entries as JSON")
    p_show = sub.add_parser("show", help="one config: registry entry, budget, header")
    p_show.add_argument("id", help="config id (see `bs4-env configs list`)")


def cmd_configs(args: argparse.Namespace) -> int:
    """Dispatch ``configs list`` / ``configs show``."""
    entries = load_registry()
    if args.configs_command == "list":
        if args.json:
            print(json.dumps(entries, indent=2, sort_keys=True))
            return 0
        rows = [
            (
                e["id"],
                e["kind"],
                str(e["gpus"]),
                e["hardware"],
                e["model"],
                f"{e['prime_rl']['ref']} {e['prime_rl']['commit'][:9]}",
                str(e["version"]),
            )
            for e in entries
        ]
        widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(_COLUMNS)]
        for row in (_COLUMNS, *rows):
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
        return 0
    entry = find_entry(entries, args.id)
    path = REPO_ROOT / entry["file"]
    print(json.dumps(entry, indent=2, sort_keys=True))
    print(f"\n{path}")
    lines = path.read_text().splitlines()
    print("\n".join(itertools.takewhile(lambda line: line.startswith("#"), lines)))
    if entry["kind"] == "rl":
        doc = load_toml(path)
        print("\nworst-case episode (tokens; see docs/training.md):")
        for group, source in sources(doc):
            budget = episode_budget(source_limits(doc, group, source))
            print(
                f"  {group} {source.get('name', '?')}: prompt {budget.prompt} + completions "
                f"{budget.completions} + tool replies {budget.tool_replies} + framing "
                f"{budget.framing} = {budget.total} <= seq_len {doc.get('seq_len')}"
            )
    return 0
