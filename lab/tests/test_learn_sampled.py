"""Training sequences from sampled token ids, expert iteration's selection, the pre-registered
design and archetype-level statistics (fast: the tiny tokenizer, no model)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("transformers")

from bs4_env.episode.tool_schema import openai_tools
from bs4_env.tasks.registry import default_registry
from bs4_lab.compare import compare_stages
from bs4_lab.design import check_stage_settings, make_design
from bs4_lab.ei_stage import iteration_rows, keep_best
from bs4_lab.plan import PlanSettings, load_or_make_plan, make_plan
from bs4_lab.sampled import sampled_sequences
from bs4_lab.tiny_model import tiny_tokenizer

SYSTEM = {"role": "system", "content": "system"}
USER = {"role": "user", "content": "find the price"}
CALL = {
    "id": "c1",
    "type": "function",
    "function": {"name": "run_python", "arguments": '{"code": "print(1)"}'},
}


def _ids(tokenizer: Any, text: str) -> list[int]:
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


def _turn_text(tokenizer: Any, messages: list[dict[str, Any]], tools: list[Any]) -> str:
    """What the template renders for the last (assistant) message, end token included."""
    before = tokenizer.apply_chat_template(
        messages[:-1], tools=tools, tokenize=False, add_generation_prompt=True
    )
    through = tokenizer.apply_chat_template(messages, tools=tools, tokenize=False)
    return str(through)[len(before) :].rstrip("\n")


def test_sampled_ids_are_trained_and_contexts_are_not() -> None:
    tokenizer = tiny_tokenizer()
    tools = openai_tools()
    call_turn = {"role": "assistant", "content": "", "tool_calls": [CALL]}
    tool = {"role": "tool", "tool_call_id": "c1", "content": "exit status: 0\n1", "name": "x"}
    history = [SYSTEM, USER, call_turn, tool]
    first = _ids(tokenizer, _turn_text(tokenizer, [SYSTEM, USER, call_turn], tools))
    final = _ids(tokenizer, '{"status": "ok", "answer": 1}<|im_end|>')
    # The first turn re-renders exactly as sampled: one sequence with both turns trained.
    (joined,) = sampled_sequences(tokenizer, history, [(2, first), (4, final)], tools)
    trained = [i for i, m in zip(joined.ids, joined.mask, strict=True) if m]
    assert trained == first + final
    assert joined.ids[-len(final) :] == final
    # A first turn sampled otherwise than the template re-renders it (an extra space): each
    # turn keeps the context the model saw, in a sequence of its own.
    other = _ids(tokenizer, " ") + first
    split = sampled_sequences(tokenizer, history, [(2, other), (4, final)], tools)
    assert len(split) == 2
    assert [[i for i, m in zip(s.ids, s.mask, strict=True) if m] for s in split] == [other, final]
    assert not any(split[1].mask[: len(split[1].ids) - len(final)])


def test_keep_best_keeps_distinct_best_rollouts_per_row() -> None:
    def record(seed: int, sample: int, reward: float, ids: list[int]) -> dict[str, Any]:
        return {
            "archetype": "a",
            "seed": seed,
            "sample": sample,
            "reward": reward,
            "best": 1.0,
            "sampled": [[2, ids]],
        }

    records = [
        record(1, 0, 1.0, [1]),
        record(1, 1, 1.0, [1]),  # the same tokens again: not a second example
        record(1, 2, 1.0, [2]),
        record(1, 3, 1.0, [3]),  # over keep_per_row
        record(2, 0, 0.0, [4]),  # not the best reward
        record(2, 1, 0.5, [5]),
    ]
    kept = keep_best(records, keep_per_row=2)
    assert [(r["seed"], r["sample"]) for r in kept] == [(1, 0), (1, 2)]


def test_iteration_rows_are_fresh_and_seeded() -> None:
    excluded = {("a", r) for r in range(0)}
    first = iteration_rows(["a", "b"], 1, 3, seed=0, excluded=excluded)
    assert first == iteration_rows(["a", "b"], 1, 3, seed=0, excluded=excluded)
    second = iteration_rows(["a", "b"], 2, 3, seed=0, excluded=set(first))
    assert len(first) == len(second) == 6 and not set(first) & set(second)


def test_a_powered_plan_keeps_the_archetype_draws_and_covers_every_archetype() -> None:
    registry = default_registry()
    base = make_plan(registry, PlanSettings(seed=1, trained_archetypes=24))
    powered = make_plan(
        registry,
        PlanSettings(
            seed=1, trained_archetypes=24, trained_rows=4, held_out_rows=12, limitation_rows=6
        ),
    )
    assert (powered.trained, powered.held_out) == (base.trained, base.held_out)
    trained = {a for a in base.trained if registry.get(a).solvable}
    assert {a for a, _ in powered.eval_rows["trained"]} == trained
    assert len(powered.eval_rows["trained"]) == 4 * len(trained)
    assert len(powered.eval_rows["held_out"]) == 12 * sum(
        registry.get(a).solvable for a in base.held_out
    )
    limits = {a for a in base.trained + base.held_out if not registry.get(a).solvable}
    assert {a for a, _ in powered.eval_rows["limitation"]} == limits


def test_the_design_is_written_before_any_stage_and_refuses_other_settings(
    tmp_path: Path,
) -> None:
    registry = default_registry()
    settings = PlanSettings(seed=1, trained_archetypes=24)
    stages = {"evaluation": {"max_turns": 5}, "ei": {"iterations": 2}}
    plan = load_or_make_plan(
        tmp_path, registry, settings, lambda p: make_design(p, stages, ("sft", "ei"), None, None)
    )
    assert plan.design is not None and plan.design["primary"]["unit"] == "archetype"
    assert plan.design["subsets"]["trained"]["rows"] == len(plan.eval_rows["trained"])
    reloaded = load_or_make_plan(tmp_path, registry, settings)
    assert reloaded.design == plan.design
    check_stage_settings(reloaded, "evaluation", {"max_turns": 5})
    with pytest.raises(ValueError, match="max_turns 5 -> 6"):
        check_stage_settings(reloaded, "evaluation", {"max_turns": 6})
    with pytest.raises(ValueError, match="not registered"):
        check_stage_settings(reloaded, "rl", {})


def test_a_plan_that_differs_from_an_earlier_run_must_say_why() -> None:
    plan = make_plan(default_registry(), PlanSettings(seed=2))
    previous = {"folder": "old", "seed": 1, "trained": plan.trained, "held_out": plan.held_out}
    with pytest.raises(ValueError, match=r"seed 1 -> 2.*--why"):
        make_design(plan, {}, ("sft", "ei"), None, previous)
    design = make_design(plan, {}, ("sft", "ei"), "a new draw", previous)
    assert design["previous_run"]["differences"] == ["seed 1 -> 2"]


def _records(rewards: dict[tuple[str, int], float]) -> list[dict[str, Any]]:
    return [
        {"archetype": a, "seed": s, "reward": r, "error": None, "transcript": [], "final": ""}
        for (a, s), r in rewards.items()
    ]


def test_archetypes_are_the_primary_units_of_the_paired_test() -> None:
    # Archetype "a" has 6 rows that all improve, "b" and "c" one row each that gets worse:
    # by rows that is 6 better / 2 worse, by archetypes 1 better / 2 worse.
    before = {("a", i): 0.0 for i in range(6)} | {("b", 0): 1.0, ("c", 0): 1.0}
    after = {("a", i): 1.0 for i in range(6)} | {("b", 0): 0.0, ("c", 0): 0.0}
    summary = compare_stages({"x": {"s": _records(before)}, "y": {"s": _records(after)}})
    by_unit = {t["unit"]: t for t in summary["paired"]}
    assert (by_unit["row"]["improved"], by_unit["row"]["worse"]) == (6, 2)
    assert (by_unit["archetype"]["improved"], by_unit["archetype"]["worse"]) == (1, 2)
    assert by_unit["archetype"]["n_pairs"] == 3
    level = summary["results"]["y"]["s"]["archetype_level"]
    assert level["n_archetypes"] == 3 and level["reward"]["mean"] == pytest.approx(1 / 3)


def test_a_run_refuses_stages_on_other_generator_versions(tmp_path: Path) -> None:
    import json
    import platform
    from importlib import metadata

    from bs4_lab.model_source import ModelSource
    from bs4_lab.run import LearnSettings, Run

    run = Run(tmp_path, LearnSettings(source=ModelSource("tiny")))
    run.finish("data", {})
    run.check_generators()
    marker = json.loads(run.marker("data").read_text())
    assert marker["generators"] == run.generators()
    assert marker["packages"]["torch"] == metadata.version("torch")
    assert marker["packages"]["python"] == platform.python_version()
    run.marker("data").write_text(json.dumps({**marker, "generators": "0" * 16}))
    with pytest.raises(ValueError, match="other archetype generator versions"):
        run.check_generators()
