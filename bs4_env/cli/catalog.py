"""``bs4-env list`` and ``bs4-env preview``: what the environment contains."""

from __future__ import annotations

import argparse
import json

from bs4_env.episode.prompt import initial_messages
from bs4_env.episode.tool_schema import openai_tools
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import SPLIT_CAPACITY, SplitError, seed_for, split_of_seed

PREVIEW_CHARS = 1500


def archetype_rows() -> list[dict[str, object]]:
    """One row per registered archetype (the README table is tested against this)."""
    return [
        {
            "id": s.id,
            "category": s.category.value,
            "difficulty": s.difficulty.value,
            "solvable": s.solvable,
            "version": s.version,
            "phase": s.phase,
            "description": s.description,
        }
        for s in default_registry()
    ]


def cmd_list(args: argparse.Namespace) -> int:
    rows = archetype_rows()
    if args.markdown:
        print(markdown_table())
        return 0
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'id':26} {'category':11} {'difficulty':10} {'solvable':8} version")
    for row in rows:
        print(
            f"{row['id']!s:26} {row['category']!s:11} {row['difficulty']!s:10} "
            f"{'yes' if row['solvable'] else 'no':8} {row['version']}"
        )
    print(f"{len(rows)} archetypes")
    return 0


def preview_seed(seed: int, split: str | None) -> tuple[int, str]:
    """(absolute seed, split) for ``--seed``: a seed as printed (``seed=200000000``) carries
    its split; a number below the first split's capacity is an index within ``split``."""
    if seed >= SPLIT_CAPACITY:
        own = split_of_seed(seed)
        if split is not None and split != own:
            raise SplitError(f"seed {seed} belongs to split {own!r}, not {split!r}")
        return seed, own
    split = split or "train"
    return seed_for(split, seed), split


def cmd_preview(args: argparse.Namespace) -> int:
    seed, split = preview_seed(args.seed, args.split)
    task = build_task(args.archetype, seed, split)
    if args.request:
        # Exactly what the model receives first (bs4-env eval and vf-eval send the same
        # messages and tools: tests/e2e/test_request_format.py); never the page or truth.
        request = {"messages": initial_messages(task), "tools": openai_tools()}
        print(json.dumps(request, ensure_ascii=False, indent=2))
        return 0
    html = task.html
    if len(html) > PREVIEW_CHARS and not args.full:
        html = html[:PREVIEW_CHARS] + f"\n[... {len(task.html) - PREVIEW_CHARS} more characters]"
    print(
        f"# {task.archetype_id} seed={task.seed} split={task.split} "
        f"difficulty={task.difficulty.value} solvable={task.solvable}"
    )
    print(f"\n## Query\n{task.query}\n\n## Answer shape\n{task.answer_schema}")
    print(f"\n## Page {task.start_url} ({len(task.html)} chars, {len(task.pages)} page(s))\n{html}")
    if task.limitation is not None:
        truth: object = {
            "reasons": [r.value for r in task.limitation.reasons],
            "evidence_tokens": list(task.limitation.evidence_tokens),
        }
    else:
        truth = task.truth
    print(f"\n## Truth\n{json.dumps(truth, ensure_ascii=False, indent=2)}")
    if task.secrets:
        print(f"\n## Secrets (must never be output)\n{list(task.secrets)}")
    return 0


def markdown_table() -> str:
    """The README's archetype table, generated from the registry."""
    lines = [
        "| id | category | difficulty | solvable | version | what it asks |",
        "|---|---|---|---|---|---|",
    ]
    for row in archetype_rows():
        lines.append(
            f"| `{row['id']}` | {row['category']} | {row['difficulty']} | "
            f"{'yes' if row['solvable'] else 'no (abstain)'} | {row['version']} | "
            f"{row['description']} |"
        )
    return "\n".join(lines)
