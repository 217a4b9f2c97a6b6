"""Dataset selection: modes, filters, unknown arguments, seeds and sizes."""

from __future__ import annotations

import pytest

from bs4_env.tasks.model import Difficulty
from bs4_env.tasks.modes import MODES, ConfigError, DatasetConfig, build_rows, select_archetypes
from bs4_env.tasks.registry import Registry


def test_unknown_argument_lists_valid_ones() -> None:
    with pytest.raises(ConfigError, match=r"valid arguments: .*split.*mode"):
        DatasetConfig.from_kwargs(split="train", partial_credit=True)


@pytest.mark.parametrize(
    "kwargs", [{"split": "test"}, {"mode": "easy"}, {"difficulty": "extreme"}, {"num_examples": 0}]
)
def test_bad_values_raise(kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        DatasetConfig.from_kwargs(**kwargs)


def test_unknown_archetype_filter_raises() -> None:
    with pytest.raises(ValueError, match="unknown archetype"):
        select_archetypes(DatasetConfig(archetypes=("nope",)))


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_selects_something(mode: str, registry: Registry) -> None:
    chosen = select_archetypes(DatasetConfig(mode=mode))
    specs = [registry.get(a) for a in chosen]
    if mode == "hard_only":
        assert {s.difficulty for s in specs} == {Difficulty.HARD}
    if mode == "bootstrap":
        assert {s.difficulty for s in specs} <= {Difficulty.PRIMER, Difficulty.EASY}
    if mode in ("mvp", "phase2"):
        assert {s.phase for s in specs} == {mode}


def test_tiered_weights_harder_archetypes_more(registry: Registry) -> None:
    rows = build_rows(DatasetConfig(mode="tiered", num_examples=5000))
    counts: dict[Difficulty, int] = {}
    for row in rows:
        difficulty = registry.get(row.archetype_id).difficulty
        counts[difficulty] = counts.get(difficulty, 0) + 1
    per_archetype = {d: counts[d] / sum(1 for s in registry if s.difficulty is d) for d in counts}
    assert per_archetype[Difficulty.HARD] > per_archetype[Difficulty.EASY]


def test_filters_seed_and_num_examples() -> None:
    config = DatasetConfig.from_kwargs(split="eval", difficulty="hard,medium", num_examples=40)
    rows = build_rows(config)
    assert len(rows) == 40
    shuffled = build_rows(DatasetConfig(split="eval", seed=3, num_examples=40))
    again = build_rows(DatasetConfig(split="eval", seed=3, num_examples=40))
    assert list(shuffled) == list(again)
    assert list(shuffled) != list(build_rows(DatasetConfig(split="eval", num_examples=40)))
