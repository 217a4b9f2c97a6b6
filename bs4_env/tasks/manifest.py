"""The committed bench manifest: stratified, shuffled (archetype, seed) rows with a version.

Every prefix of the manifest covers the archetypes in proportion (round-robin rounds, each
round in its own shuffled order). The version string ends with a hash of the generated task
contents, so a test notices any drift in generated pages or truths.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from random import Random

from bs4_env.tasks.registry import Registry, build_task, default_registry
from bs4_env.tasks.splits import Row, seed_for

MANIFEST_PATH = Path(__file__).parent / "data" / "bench_manifest.json"
BENCH_SEEDS_PER_ARCHETYPE = 20
_ORDER_SEED = 20261122


@dataclass(frozen=True)
class Manifest:
    version: str
    rows: tuple[Row, ...]


def stratified_rows(archetype_ids: list[str], per_archetype: int) -> list[Row]:
    """Round ``r`` holds seed index ``r`` of every archetype, in a per-round shuffled order."""
    order_rng = Random(_ORDER_SEED)
    rows: list[Row] = []
    for round_index in range(per_archetype):
        ids = sorted(archetype_ids)
        order_rng.shuffle(ids)
        rows.extend(Row(a, seed_for("bench", round_index), "bench") for a in ids)
    return rows


def content_hash(rows: tuple[Row, ...] | list[Row], registry: Registry | None = None) -> str:
    """SHA-256 over every row's generated pages, query and truth (12 hex digits)."""
    digest = hashlib.sha256()
    for row in rows:
        task = build_task(row.archetype_id, row.seed, row.split, registry)
        record = {
            "id": row.archetype_id,
            "seed": row.seed,
            "version": task.generator_version,
            "pages": dict(sorted(task.pages.items())),
            "query": task.query,
            "truth": task.truth,
            "evidence": list(task.limitation.evidence_tokens) if task.limitation else None,
        }
        digest.update(json.dumps(record, sort_keys=True, ensure_ascii=False).encode())
    return digest.hexdigest()[:12]


def build_manifest(registry: Registry | None = None) -> Manifest:
    registry = registry or default_registry()
    rows = tuple(stratified_rows(list(registry.ids()), BENCH_SEEDS_PER_ARCHETYPE))
    return Manifest(version=f"bench-v2-{content_hash(rows, registry)}", rows=rows)


def write_manifest(manifest: Manifest, path: Path = MANIFEST_PATH) -> None:
    data = {
        "version": manifest.version,
        "rows": [[row.archetype_id, row.seed] for row in manifest.rows],
    }
    path.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")


@cache
def load_manifest(path: Path = MANIFEST_PATH) -> Manifest:
    """The committed manifest; raises a clear error if it is missing."""
    if not path.is_file():
        raise FileNotFoundError(f"bench manifest {path} is missing; run `bs4-env manifest --write`")
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = tuple(Row(str(a), int(s), "bench") for a, s in data["rows"])
    return Manifest(version=str(data["version"]), rows=rows)
