"""The learning run's plan: seeded, fixed, held-out archetypes disjoint from trained ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bs4_env.tasks.model import Difficulty
from bs4_env.tasks.registry import default_registry
from bs4_env.tasks.splits import SPLIT_BASES, split_of_seed
from bs4_lab.plan import PLAN_FILE, PlanSettings, load_or_make_plan, make_plan


def test_plan_is_seeded_and_holds_out_each_kind() -> None:
    registry = default_registry()
    plan = make_plan(registry, PlanSettings(seed=3))
    assert plan == make_plan(registry, PlanSettings(seed=3))
    assert plan.held_out != make_plan(registry, PlanSettings(seed=4)).held_out
    assert not set(plan.held_out) & set(plan.trained)
    specs = [registry.get(a) for a in plan.held_out]
    assert sum(s.difficulty in (Difficulty.PRIMER, Difficulty.EASY) for s in specs) == 2
    assert sum(s.difficulty is Difficulty.MEDIUM and s.solvable for s in specs) == 2
    assert sum(not s.solvable for s in specs) == 1
    assert all(registry.get(a).difficulty is not Difficulty.HARD for a in plan.trained)


def test_eval_rows_are_eval_split_and_subsets_match_their_archetypes() -> None:
    registry = default_registry()
    plan = make_plan(registry, PlanSettings(seed=0))
    for subset, rows in plan.eval_rows.items():
        assert rows, subset
        assert all(split_of_seed(seed) == "eval" for _, seed in rows)
        assert len(set(rows)) == len(rows)
    assert {a for a, _ in plan.eval_rows["trained"]} <= set(plan.trained)
    assert {a for a, _ in plan.eval_rows["held_out"]} <= set(plan.held_out)
    assert all(not registry.get(a).solvable for a, _ in plan.eval_rows["limitation"])
    assert set(plan.rl_archetypes) <= {a for a, _ in plan.eval_rows["trained"]}
    assert "eval" in SPLIT_BASES


def test_a_saved_plan_is_reused_and_other_settings_are_refused(tmp_path: Path) -> None:
    registry = default_registry()
    first = load_or_make_plan(tmp_path, registry, PlanSettings(seed=1))
    assert (tmp_path / PLAN_FILE).is_file()
    assert load_or_make_plan(tmp_path, registry, PlanSettings(seed=1)) == first
    with pytest.raises(ValueError, match="other settings"):
        load_or_make_plan(tmp_path, registry, PlanSettings(seed=2))


def test_a_smaller_trained_set_keeps_every_other_draw() -> None:
    """``trained_archetypes`` narrows what SFT covers without moving the held-out set, the
    eval rows or the RL archetypes (and a plan without it is what it always was)."""
    registry = default_registry()
    full = make_plan(registry, PlanSettings(seed=1))
    narrow = make_plan(registry, PlanSettings(seed=1, trained_archetypes=24))
    assert (narrow.held_out, narrow.eval_rows, narrow.rl_archetypes) == (
        full.held_out,
        full.eval_rows,
        full.rl_archetypes,
    )
    assert len(narrow.trained) == 24 and set(narrow.trained) < set(full.trained)
    evaluated = {a for a, _ in narrow.eval_rows["trained"]}
    trained_limits = {a for a, _ in narrow.eval_rows["limitation"]} - set(narrow.held_out)
    assert evaluated | trained_limits <= set(narrow.trained)
    assert narrow == make_plan(registry, PlanSettings(seed=1, trained_archetypes=24))
    for bad in (5, 500):
        with pytest.raises(ValueError, match="trained_archetypes must be between"):
            make_plan(registry, PlanSettings(seed=1, trained_archetypes=bad))


@pytest.mark.parametrize("run", ["learn-0p5b-seed0", "learn-0p5b-run3-ei"])
def test_the_committed_learning_run_plan_is_reproduced(run: str) -> None:
    """The plans of the committed runs are what their settings make: new plan options must
    not move the draws of existing plans (the design block is written beside the draws)."""
    import json

    path = Path(__file__).parents[2] / "outputs" / run / PLAN_FILE
    saved = json.loads(path.read_text())
    made = make_plan(default_registry(), PlanSettings(**saved["settings"])).to_json()
    skip = {"settings", "design"}
    assert {k: v for k, v in made.items() if k not in skip} == {
        k: v for k, v in saved.items() if k not in skip
    }


def test_impossible_hold_out_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot hold out"):
        make_plan(default_registry(), PlanSettings(held_out_limitation=99))


RUN_4 = PlanSettings(
    seed=1,
    held_out_easy=2,
    held_out_medium=3,
    sft_episodes=720,
    trained_rows=4,
    held_out_rows=12,
    limitation_rows=3,
)


def test_the_run_4_plan_trains_every_solvable_archetype_not_held_out() -> None:
    """Run 4's registered plan: >= 60 trained archetypes with 4 eval rows each, >= 5 held-out
    solvable ones with 12 each, every limitation archetype's rows, run 3's held-out kept."""
    registry = default_registry()
    plan = make_plan(registry, RUN_4)
    assert plan == make_plan(registry, RUN_4)
    non_hard = [s for s in registry.specs() if s.difficulty is not Difficulty.HARD]
    assert sorted(plan.trained + plan.held_out) == sorted(s.id for s in non_hard)
    assert not set(plan.trained) & set(plan.held_out)
    trained = [a for a, _ in plan.eval_rows["trained"]]
    solvable_trained = [a for a in plan.trained if registry.get(a).solvable]
    assert len(plan.trained) >= 60 and sorted(set(trained)) == solvable_trained
    assert all(trained.count(a) == 4 for a in solvable_trained)
    held = [a for a, _ in plan.eval_rows["held_out"]]
    assert len(set(held)) >= 5 and all(held.count(a) == 12 for a in set(held))
    limits = {a for a, _ in plan.eval_rows["limitation"]}
    assert limits == {s.id for s in non_hard if not s.solvable}
    run_3 = make_plan(
        registry,
        PlanSettings(
            seed=1, trained_archetypes=24, trained_rows=4, held_out_rows=12, limitation_rows=6
        ),
    )
    assert set(run_3.held_out) < set(plan.held_out)  # run 3's held-out set plus one
    for rows in plan.eval_rows.values():
        assert all(split_of_seed(seed) == "eval" for _, seed in rows)
