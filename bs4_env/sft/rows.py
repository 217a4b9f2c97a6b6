"""Which train-split tasks become episodes: balanced, seeded, archetypes held in or out."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from bs4_env.tasks.registry import Registry
from bs4_env.tasks.splits import TRAIN_SEEDS_PER_ARCHETYPE, Row, seed_for

BALANCES = ("archetype", "difficulty")


def select_archetypes(
    registry: Registry, include: Sequence[str] | None, exclude: Sequence[str] | None
) -> list[str]:
    """The archetype ids to draw from; unknown ids raise (``registry.get``)."""
    for archetype_id in [*(include or ()), *(exclude or ())]:
        registry.get(archetype_id)
    ids = list(include) if include else list(registry.ids())
    chosen = [i for i in ids if i not in set(exclude or ())]
    if not chosen:
        raise ValueError("no archetypes left after --archetypes / --exclude-archetypes")
    return sorted(chosen)


def _quotas(registry: Registry, ids: list[str], count: int, balance: str) -> dict[str, int]:
    """Episodes per archetype: equal shares, or equal shares per difficulty then archetype.
    Remainders go to the first archetypes in a fixed order, so the split is reproducible."""
    if balance not in BALANCES:
        raise ValueError(f"unknown balance {balance!r}; valid: {list(BALANCES)}")
    if balance == "archetype":
        groups = {"all": ids}
    else:
        groups = {}
        for archetype_id in ids:
            groups.setdefault(registry.get(archetype_id).difficulty.value, []).append(archetype_id)
    quotas: dict[str, int] = {}
    per_group, extra_groups = divmod(count, len(groups))
    for g, members in enumerate(sorted(groups.values())):
        share = per_group + (g < extra_groups)
        each, extra = divmod(share, len(members))
        for m, archetype_id in enumerate(members):
            quotas[archetype_id] = each + (m < extra)
    return quotas


def sft_rows(
    registry: Registry, ids: list[str], count: int, seed: int, balance: str = "archetype"
) -> list[Row]:
    """``count`` train rows, interleaved across archetypes; distinct seeds per archetype."""
    if count < 1:
        raise ValueError("--num-episodes must be >= 1")
    quotas = _quotas(registry, ids, count, balance)
    if max(quotas.values()) > TRAIN_SEEDS_PER_ARCHETYPE:
        raise ValueError(f"at most {TRAIN_SEEDS_PER_ARCHETYPE} episodes per archetype")
    rng = Random(f"sft-rows:{seed}")
    per_archetype: dict[str, list[Row]] = {}
    for archetype_id in ids:
        indexes = rng.sample(range(TRAIN_SEEDS_PER_ARCHETYPE), quotas[archetype_id])
        per_archetype[archetype_id] = [
            Row(archetype_id, seed_for("train", i), "train") for i in indexes
        ]
    rows: list[Row] = []
    for k in range(max(quotas.values())):  # round robin: every prefix is balanced too
        rows.extend(group[k] for group in per_archetype.values() if k < len(group))
    return rows
