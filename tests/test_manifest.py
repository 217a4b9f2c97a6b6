"""The committed bench manifest: versioned by content, stratified in every prefix."""

from __future__ import annotations

from collections import Counter

from bs4_env.tasks.manifest import content_hash, load_manifest
from bs4_env.tasks.registry import Registry


def test_manifest_version_matches_generated_content(registry: Registry) -> None:
    manifest = load_manifest()
    assert manifest.version.endswith(content_hash(manifest.rows, registry)), (
        "generated bench content drifted: bump versions and run `bs4-env manifest --write`"
    )


def test_manifest_covers_registry_and_prefixes_are_balanced(registry: Registry) -> None:
    rows = load_manifest().rows
    ids = set(registry.ids())
    assert {row.archetype_id for row in rows} == ids
    assert len(set(rows)) == len(rows)
    assert {row.split for row in rows} == {"bench"}
    for n in (50, len(ids), 100, 200, len(rows)):
        counts = Counter(row.archetype_id for row in rows[:n])
        per_archetype = [counts[archetype_id] for archetype_id in ids]
        assert max(per_archetype) - min(per_archetype) <= 1, f"prefix {n} is unbalanced"
        if n >= len(ids):
            assert set(counts) == ids, f"prefix {n} misses archetypes"
