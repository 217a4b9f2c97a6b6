"""Dataset selection: split, mode, filters, seed and size, with loud argument checking."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bs4_env.tasks.manifest import load_manifest
from bs4_env.tasks.model import DIFFICULTY_RANK, ArchetypeSpec, Difficulty
from bs4_env.tasks.registry import Registry, default_registry
from bs4_env.tasks.splits import (
    EVAL_SEEDS_PER_ARCHETYPE,
    SPLIT_BASES,
    TRAIN_SEEDS_PER_ARCHETYPE,
    Row,
    SplitIndex,
)

MODES = ("mvp", "phase2", "all", "tiered", "hard_only", "bootstrap")
TIER_WEIGHTS = {Difficulty.PRIMER: 1, Difficulty.EASY: 2, Difficulty.MEDIUM: 3, Difficulty.HARD: 4}


class ConfigError(ValueError):
    """An unknown argument or an invalid value; the message lists what is valid."""


@dataclass(frozen=True)
class DatasetConfig:
    """Which tasks an environment serves. Unknown keys are rejected by ``from_kwargs``."""

    split: str = "train"
    mode: str = "all"
    difficulty: tuple[str, ...] = ()
    archetypes: tuple[str, ...] = ()
    seed: int | None = None
    num_examples: int | None = None

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> DatasetConfig:
        valid = [f.name for f in fields(cls)]
        unknown = sorted(set(kwargs) - set(valid))
        if unknown:
            raise ConfigError(f"unknown argument(s) {unknown}; valid arguments: {valid}")
        for key in ("difficulty", "archetypes"):
            value = kwargs.get(key)
            if isinstance(value, str):
                kwargs[key] = tuple(v.strip() for v in value.split(",") if v.strip())
            elif value is not None:
                kwargs[key] = tuple(value)
        return cls(**{k: v for k, v in kwargs.items() if v is not None})

    def __post_init__(self) -> None:
        if self.split not in SPLIT_BASES:
            raise ConfigError(f"split must be one of {sorted(SPLIT_BASES)}, got {self.split!r}")
        if self.mode not in MODES:
            raise ConfigError(f"mode must be one of {list(MODES)}, got {self.mode!r}")
        bad = [d for d in self.difficulty if d not in {x.value for x in Difficulty}]
        if bad:
            raise ConfigError(f"unknown difficulty {bad}; valid: {[d.value for d in Difficulty]}")
        if self.num_examples is not None and self.num_examples < 1:
            raise ConfigError("num_examples must be >= 1")


def _mode_filter(spec: ArchetypeSpec, mode: str) -> bool:
    if mode in ("mvp", "phase2"):
        return spec.phase == mode
    if mode == "hard_only":
        return spec.difficulty is Difficulty.HARD
    if mode == "bootstrap":
        return DIFFICULTY_RANK[spec.difficulty] <= DIFFICULTY_RANK[Difficulty.EASY]
    return True


def select_archetypes(config: DatasetConfig, registry: Registry | None = None) -> list[str]:
    """Archetype ids allowed by the mode and filters; raises if none remain."""
    registry = registry or default_registry()
    for archetype in config.archetypes:
        registry.get(archetype)  # unknown ids raise with the list of known ones
    chosen = [
        spec.id
        for spec in registry
        if _mode_filter(spec, config.mode)
        and (not config.difficulty or spec.difficulty.value in config.difficulty)
        and (not config.archetypes or spec.id in config.archetypes)
    ]
    if not chosen:
        raise ConfigError(f"no archetype matches mode/difficulty/archetypes in {config}")
    return chosen


def build_rows(config: DatasetConfig, registry: Registry | None = None) -> Sequence[Row]:
    """The rows a config selects: lazy for train/eval, the stratified manifest for bench."""
    registry = registry or default_registry()
    chosen = select_archetypes(config, registry)
    if config.split == "bench":
        allowed = set(chosen)
        rows: Sequence[Row] = [row for row in load_manifest().rows if row.archetype_id in allowed]
    else:
        weights: Mapping[str, int] = {
            a: TIER_WEIGHTS[registry.get(a).difficulty] if config.mode == "tiered" else 1
            for a in chosen
        }
        per = TRAIN_SEEDS_PER_ARCHETYPE if config.split == "train" else EVAL_SEEDS_PER_ARCHETYPE
        cycles = per // max(weights.values())
        rows = SplitIndex(weights, config.split, cycles, shuffle_seed=config.seed)
    if config.num_examples is not None:
        rows = rows[: config.num_examples]
    return rows
