"""Golden content hashes: a few seeds per archetype, pinned with the archetype's version."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import Registry, build_task, default_registry
from bs4_env.tasks.splits import seed_for

GOLDEN_SEEDS = (("train", 0), ("train", 1), ("eval", 0), ("bench", 0))


def task_fingerprint(task: Task) -> str:
    """SHA-256 of everything generated for a task (pages, query, truth, limitation, secrets)."""
    record = {
        "pages": dict(sorted(task.pages.items())),
        "start_url": task.start_url,
        "query": task.query,
        "truth": task.truth,
        "limitation": (
            [[r.value for r in task.limitation.reasons], list(task.limitation.evidence_tokens)]
            if task.limitation
            else None
        ),
        "secrets": list(task.secrets),
    }
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def golden_table(registry: Registry | None = None) -> dict[str, dict[str, object]]:
    registry = registry or default_registry()
    table: dict[str, dict[str, object]] = {}
    for spec in registry:
        hashes = [
            task_fingerprint(build_task(spec.id, seed_for(split, i), split, registry))[:16]
            for split, i in GOLDEN_SEEDS
        ]
        table[spec.id] = {"version": spec.version, "hashes": hashes}
    return table


def write_golden(path: Path, registry: Registry | None = None) -> None:
    path.write_text(json.dumps(golden_table(registry), indent=1, sort_keys=True) + "\n")
