"""The equal-compute control (episode choice, batches, EI's targets from run 3's committed
journals, its training steps on the tiny model), the run-4 budget, and the behaviour
measures recomputed from run 3's committed eval documents."""

from __future__ import annotations

import json
import math
from pathlib import Path
from random import Random

import pytest

from bs4_env.tasks.registry import default_registry
from bs4_lab.budget import RATES, estimate
from bs4_lab.control_stage import batches_of, select_episodes
from bs4_lab.plan import PLAN_FILE, Plan, PlanSettings, make_plan
from bs4_lab.real_measures import abstained, behaviour, no_final, warm_start_rate

RUN_3 = Path(__file__).parents[2] / "outputs" / "learn-0p5b-run3-ei"


def _greedy(stage: str, subset: str) -> list[dict[str, object]]:
    records: list[dict[str, object]] = json.loads(
        (RUN_3 / f"eval-{stage}" / f"{subset}-greedy.json").read_text()
    )["rollouts"]
    return records


@pytest.mark.parametrize("seed", range(20))
def test_chosen_episodes_match_the_target_tokens_over_the_steps(seed: int) -> None:
    rng = Random(seed)
    pool = [rng.randint(120, 700) for _ in range(rng.randint(5, 80))]
    # As in a run: EI's steps hold more trained tokens than one expert episode.
    steps = rng.randint(3, 20)
    target = rng.randint(steps * 700, steps * 700 + 20_000)
    chosen = select_episodes(pool, target, steps)
    assert chosen == select_episodes(pool, target, steps)  # deterministic
    assert len(chosen) >= steps and all(0 <= i < len(pool) for i in chosen)
    total = sum(pool[i] for i in chosen)
    assert abs(total - target) <= max(pool) // 2 + 1
    assert abs(total / target - 1) <= 0.10


def test_a_small_pool_is_taken_again_and_a_large_one_is_trimmed() -> None:
    assert select_episodes([300, 300], 1800, 2) == [0, 1, 0, 1, 0, 1]
    assert select_episodes([300] * 50, 1500, 3) == [0, 1, 2, 3, 4]
    # Where the sum crosses the target, the episode of the rest of the pass closest to it.
    assert select_episodes([500, 500, 900, 100], 1050, 2) == [0, 1]
    assert select_episodes([500, 400, 900, 150], 1050, 2) == [0, 1, 3]
    # Every step needs an episode, even past the target.
    assert select_episodes([1000, 1000, 1000], 1000, 3) == [0, 1, 2]
    assert select_episodes([400, 200], 0, 0) == []
    with pytest.raises(ValueError, match="expert episodes"):
        select_episodes([], 100, 1)


def test_batches_cover_every_episode_once_in_order() -> None:
    batches = batches_of(14, 4)
    assert [len(b) for b in batches] == [4, 4, 3, 3]
    assert [i for b in batches for i in b] == list(range(14))


def test_the_budget_is_the_registered_arithmetic() -> None:
    registry = default_registry()
    plan = make_plan(
        registry,
        PlanSettings(
            seed=1, held_out_medium=3, trained_rows=4, held_out_rows=12, limitation_rows=3
        ),
    )
    stages = {
        "data": {"episodes": 720},
        "evaluation": {"samples": 0},
        "ei": {
            "ei": {
                "iterations": 2,
                "rows_per_archetype": 1,
                "samples_per_row": 4,
                "episodes_per_step": 4,
            }
        },
        "eval-real": {"rows": 70},
        "transfer": {"episodes_per_archetype": 12},
    }
    budget = estimate(plan, stages)
    rows = sum(len(v) for v in plan.eval_rows.values())
    assert rows == 65 * 4 + 5 * 12 + 8 * 3
    assert budget["seconds"]["eval-ei"] == round(rows * RATES["eval_row_adapter"])
    rollouts = 72 * 4
    steps = 2 * math.ceil(rollouts * RATES["kept_sequences_per_rollout"] / 4)
    assert budget["seconds"]["ei"] == round(
        2 * rollouts * RATES["ei_rollout"] + steps * RATES["train_step"]
    )
    assert budget["total_seconds"] == sum(budget["seconds"].values())
    assert budget["total_hours"] <= 24


def test_behaviour_measures_give_run_3s_recorded_figures() -> None:
    """learning.md and issue 36: run 3's SFT left 52 of 88 trained rows without a final answer
    and abstained on 8; EI abstained on 46 of 48 solvable held-out rows."""
    sft = _greedy("sft", "trained")
    assert sum(map(no_final, sft)) == 52 and sum(map(abstained, sft)) == 8
    assert warm_start_rate(sft)["k"] == 60 and warm_start_rate(sft)["n"] == 88
    held = behaviour(_greedy("ei", "held_out"))
    assert (held["abstained_solvable"]["k"], held["abstained_solvable"]["n"]) == (46, 48)
    assert held["answered"]["k"] == 1  # 2.1% answered (docs/learning.md)
    assert held["reward"]["mean"] == 0.0


GGUF = Path.home() / ".cache/bs4-localmodel/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"


@pytest.mark.slow
@pytest.mark.skipif(not GGUF.is_file(), reason=f"needs the 0.5B GGUF at {GGUF}")
def test_eis_targets_are_rebuilt_exactly_from_run_3s_journals() -> None:
    """The control reads EI's steps and trained tokens from the round's journal; on run 3's
    committed journals that gives the sequences EI trained on (same sha256), 6,263 and 8,527
    trained tokens in 9 and 12 steps (TEST_RECORDS.md)."""
    from bs4_lab.control_stage import ei_round_target
    from bs4_lab.ei_stage import EiSettings
    from bs4_lab.model_source import ModelSource
    from bs4_lab.qwen_tokenizer import tokenizer_from_gguf
    from bs4_lab.run import LearnSettings, Run

    saved = json.loads((RUN_3 / PLAN_FILE).read_text())
    plan = Plan.from_json(saved)
    assert plan.design is not None
    settings = LearnSettings(
        source=ModelSource.parse(str(GGUF)),
        plan=PlanSettings(**saved["settings"]),
        ei=EiSettings(**plan.design["stages"]["ei"]["ei"]),
    )
    run = Run(RUN_3, settings)
    tokenizer = tokenizer_from_gguf(GGUF)
    targets = [ei_round_target(run, index, tokenizer) for index in (1, 2)]
    assert [(t.steps, t.sequences, t.trained_tokens) for t in targets] == [
        (9, 34, 6263),
        (12, 48, 8527),
    ]
    assert [len(t.rows) for t in targets] == [48, 48]


@pytest.mark.integration
def test_the_control_trains_its_steps_on_expert_episodes_and_resumes(tmp_path: Path) -> None:
    """Expert episodes of train rows (the sft-data generator), chosen to a token target and
    trained in exactly the given steps on the tiny model; a rerun resumes, training nothing."""
    import asyncio

    pytest.importorskip("torch")
    from bs4_env.episode.executors import make_executor
    from bs4_env.sft.build import DATA_FILE, generate
    from bs4_env.tasks.splits import Row, seed_for
    from bs4_lab.control_stage import train_batches
    from bs4_lab.model_source import ModelSource
    from bs4_lab.render import render_episode
    from bs4_lab.sft_stage import load_sequences, rendered_episodes
    from bs4_lab.token_rows import tag_ids
    from bs4_lab.trainer import LoraTrainer, TrainConfig

    rows = [Row(a, seed_for("train", 5), "train") for a in ("class_keyword", "dl_term_value")]

    async def make() -> None:
        async with make_executor("local", concurrency=2) as executor:
            await generate(rows, default_registry(), executor, tmp_path / "data", 1)

    asyncio.run(make())
    model, tokenizer = ModelSource.parse("tiny").load()
    data = tmp_path / "data" / DATA_FILE
    pool, _ = load_sequences(tokenizer, data, 10_000)
    # The control keeps each sequence with its record, also when some are dropped.
    cut = sorted(len(s.ids) for s in pool)[0]
    kept, records, dropped = rendered_episodes(tokenizer, data, cut)
    assert len(kept) == len(records) == len(pool) - dropped["too_long"] >= 1
    assert [s.ids for s in kept] == [s.ids for s in pool if len(s.ids) <= cut]
    for record, sequence in zip(records, kept, strict=True):
        made = render_episode(tokenizer, record["messages"], json.loads(record["tools"]))
        assert made.ids == sequence.ids
    trained = [s.trained for s in pool]
    chosen = select_episodes(trained, 3 * sum(trained), 3)
    assert len(chosen) == 3 * len(pool)  # the pool taken three times
    sequences = [pool[i] for i in chosen]
    checkpoint, log = tmp_path / "checkpoint", tmp_path / "log.jsonl"
    trainer = LoraTrainer(model, TrainConfig(), tag_ids(tokenizer))
    figures = train_batches(trainer, sequences, batches_of(len(sequences), 3), checkpoint, log, 2)
    assert figures["steps"] == 3 and trainer.steps == 3
    assert [json.loads(line)["step"] for line in log.open()] == [1, 2, 3]
    again = LoraTrainer(ModelSource.parse("tiny").load()[0], TrainConfig(), tag_ids(tokenizer))
    train_batches(again, sequences, batches_of(len(sequences), 3), checkpoint, log, 2)
    assert again.steps == 3 and len(log.read_text().splitlines()) == 3


def test_eval_real_without_fetched_pages_says_how_to_fetch_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bs4_env.pages.cache import CACHE_VARIABLE
    from bs4_lab.real_eval_stage import real_rows
    from bs4_lab.real_settings import RealSettings

    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))  # an empty page cache
    with pytest.raises(ValueError, match="Fetch them first with `bs4-env real fetch`"):
        real_rows(RealSettings())
    assert RealSettings().registered()["pages_version"] == "5c43400c8d6f"  # run 3's real figures


def test_a_run_with_eval_real_ahead_stops_before_its_first_stage_without_the_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bs4_env.cli.main import main
    from bs4_env.pages.cache import CACHE_VARIABLE

    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))  # an empty page cache
    out = tmp_path / "run"
    args = ["learn", "--allow-uncommitted-plan", "--model", "tiny", "--out", str(out), "--quiet"]
    assert main([*args, "--stages", "data,eval-real"]) == 2
    assert "Fetch them first with `bs4-env real fetch`" in capsys.readouterr().err
    assert not (out / "stages" / "data.json").exists()  # hours of data and training not begun
