"""Recovery, budget and defensive episodes of ``bs4-env sft-data``, and the episode mix.

One small run with a mix heavy in the new kinds, over archetypes of several families, is
checked episode by episode: every tool reply is what a fresh engine returns for that call on
that page, and the fresh engine's grade is the stored one; a recovery episode's first reply is
a real failure (traceback or empty result) and a later program runs; a budget episode ends with
the engine's own budget message and a graded-correct ``ok`` answer whose values an earlier
reply printed; a defensive first program checks for ``None``; the episodes render with the
Qwen2.5 chat template (the tiny CI tokenizer); the requested mix is reported and honoured.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from test_qwen25_renderer import _check_ids_and_mask, _tiny
from test_sft_format import GGUF, _arrow_union, _prime_rl_message_steps

from bs4_env.cli.main import main
from bs4_env.episode.engine import Budgets, Episode, EpisodeState
from bs4_env.episode.executors import make_executor
from bs4_env.episode.tool_text import stdout_of
from bs4_env.sandbox.base import Executor
from bs4_env.sft.build import expert_episodes
from bs4_env.sft.mistakes import EMPTY_OUTPUTS, class_variants, key_variants
from bs4_env.sft.mix import Mix, parse_mix
from bs4_env.sft.recovery import shows_values
from bs4_env.sft.replay import SFT_BUDGETS
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import Row, seed_for, split_of_seed

ARCHETYPES = (
    "address_br_lines,all_links,attribute_selector_links,canonical_url,comment_timestamp,"
    "contains_phrase_card,select_options,text_by_class_decoys,hreflang_url,js_rendered,"
    "multipage_navigate,all_images"
)
MIX = "recovery=0.3,budget=0.25,defensive=0.15"
ROWS = 36
FAILURES = ("AttributeError", "TypeError", "KeyError", "StopIteration", "IndexError")


def _run(folder: Path, rows: int = ROWS, seed: int = 0) -> str:
    args = ["sft-data", "-n", str(rows), "--seed", str(seed), "--archetypes", ARCHETYPES]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main([*args, "--mix", MIX, "--out", str(folder)])
    assert code == 0
    return printed.getvalue()


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("sft-recovery")
    return folder, _run(folder)


def _records(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "train.jsonl").read_text().splitlines()]


def _of(records: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    found = [r for r in records if r["episode_kind"] == kind]
    assert found, f"no {kind} episode in the run"
    return found


def _replies(record: dict[str, Any]) -> list[str]:
    return [m["content"] for m in record["messages"] if m["role"] == "tool"]


def _codes(record: dict[str, Any]) -> list[str]:
    return [
        json.loads(c["function"]["arguments"])["code"]
        for m in record["messages"]
        for c in m.get("tool_calls") or []
    ]


def _budget_of(record: dict[str, Any]) -> int | None:
    tags = [t for t in record["tags"] if t.startswith("budget:")]
    return int(tags[0].split(":")[1]) if tags else None


def _without_timing(reply: str) -> str:
    return "\n".join(line for line in reply.splitlines() if not line.startswith("time: "))


async def _fresh(record: dict[str, Any], executor: Executor) -> tuple[list[str], Any]:
    """The engine's replies to the record's calls and its grade of the final reply."""
    task = build_task(record["archetype"], record["seed"], "train")
    budget = _budget_of(record)
    budgets = SFT_BUDGETS if budget is None else Budgets(budget, 10.0, 3000)
    episode = Episode(task, executor, budgets)
    replies = []
    for m in record["messages"]:
        for c in m.get("tool_calls") or []:
            replies.append(
                await episode.call_tool(c["function"]["name"], c["function"]["arguments"])
            )
    return replies, episode.finish(record["messages"][-1]["content"])


def check_replays(records: list[dict[str, Any]]) -> None:
    """Every new-kind episode's replies are a fresh engine's, and so is its grade.

    Each record gets a fresh engine (``Episode``: its own state, budgets and grade) and all
    of them share one sandbox pool, as the episodes of a training run do: a sandbox call
    forks a fresh child from the pool's warm template and keeps nothing between calls
    (tests/sandbox), so a pool per record (about 0.35 CPU-s to start each, 2026-12-06)
    replied with the same bytes and only cost its start-up.
    """

    async def replay_all() -> list[tuple[list[str], Any]]:
        async with make_executor("local", pool_size=1) as executor:
            return [
                await _fresh(record, executor)
                for record in records
                if record["episode_kind"] != "normal"
            ]

    fresh = iter(asyncio.run(replay_all()))
    for record in records:
        if record["episode_kind"] == "normal":
            continue
        replies, score = next(fresh)
        assert [_without_timing(r) for r in replies] == [
            _without_timing(r) for r in _replies(record)
        ], record["archetype"]
        assert score.reward == record["reward"] and score.components["correct"] == 1.0


def check_recovery(records: list[dict[str, Any]]) -> None:
    for record in _of(records, "recovery"):
        first, *later = _replies(record)
        if first.startswith("exit status: 0"):
            assert stdout_of(first).strip() in EMPTY_OUTPUTS, first
        else:
            assert first.startswith("exit status: 1"), first
            assert any(f"{name}" in first.split("Traceback")[-1] for name in FAILURES), first
        assert later and later[-1].startswith("exit status: 0")
        assert record["reward"] == 1.0
        # The look is generic: it is neither the failed program nor the working one.
        broken, look, working = _codes(record)
        assert look not in (broken, working) and broken != working


def check_budget(records: list[dict[str, Any]]) -> None:
    async def refusal(budget: int) -> str:
        task = build_task("text_by_id", seed_for("train", 0), "train")
        async with make_executor("local", pool_size=1) as executor:
            state = EpisodeState(current_url=task.start_url, tool_calls=budget)
            episode = Episode(task, executor, Budgets(max_tool_calls=budget), state)
            return await episode.run_python("print(1)")

    for record in _of(records, "budget"):
        budget = _budget_of(record)
        assert budget is not None
        replies = _replies(record)
        assert len(replies) == budget + 1
        assert replies[-1] == asyncio.run(refusal(budget))
        final = json.loads(record["messages"][-1]["content"])
        assert final["status"] == "ok" and 0.0 < record["reward"] < 1.0
        printed = "\n".join(stdout_of(r) for r in replies[:-1])
        assert shows_values(printed, final["answer"]), record["archetype"]


def check_defensive(records: list[dict[str, Any]]) -> None:
    for record in _of(records, "defensive"):
        first = _codes(record)[0]
        assert " is None:" in first and "\nelse:\n" in first
        assert record["reward"] == 1.0


def _expected_untrained(record: dict[str, Any]) -> int:
    """How many deliberately wrong programs the record's plan made (``Step.trained``)."""
    tags = record["tags"]
    if "recovery" in tags:
        return 1
    if "budget" in tags:
        return 2 if _budget_of(record) == 4 else 1
    return 1 if "fix" in tags else 0


def check_untrained(records: list[dict[str, Any]]) -> None:
    """The wrong programs, and only they, are out of the loss: each listed turn is an assistant
    tool call whose real reply is a failure (a traceback or an empty print)."""
    assert any(r["untrained_turns"] for r in records)
    for record in records:
        turns, messages = record["untrained_turns"], record["messages"]
        assert len(turns) == _expected_untrained(record), (record["archetype"], record["tags"])
        for index in turns:
            assert messages[index]["role"] == "assistant" and messages[index]["tool_calls"]
            reply = messages[index + 1]["content"]
            assert reply.startswith("exit status: 1") or stdout_of(reply).strip() in EMPTY_OUTPUTS


CHECKS = (check_replays, check_recovery, check_budget, check_defensive, check_untrained)


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS])
def test_new_kinds(run: tuple[Path, str], check: Any) -> None:
    check(_records(run[0]))


@pytest.mark.slow
def test_new_kinds_across_the_registry(tmp_path: Path) -> None:
    """One row of every archetype, most of them recovery or budget episodes."""
    count = len(default_registry().ids())
    args = ["sft-data", "-n", str(count), "--seed", "7", "--out", str(tmp_path)]
    assert main([*args, "--mix", "recovery=0.4,budget=0.3,defensive=0.1"]) == 0
    records = _records(tmp_path)
    for check in CHECKS:
        check(records)
    assert len({r["archetype"] for r in _of(records, "recovery")}) >= 20


def test_mix_is_reported_and_honoured(run: tuple[Path, str]) -> None:
    folder, printed = run
    summary = json.loads((folder / "summary.json").read_text())
    mix = summary["mix"]
    assert "episode kinds kept" in printed and json.dumps(mix["kept"]) in printed
    wanted = parse_mix(MIX).shares()
    assert mix["requested_shares"] == wanted
    assert sum(mix["targets"].values()) == ROWS and sum(mix["kept"].values()) == summary["kept"]
    for kind, share in wanted.items():
        assert abs(mix["kept_shares"][kind] - share) <= 0.1, (kind, mix)
    # Rows a kind cannot take stay normal: limitation and multipage rows.
    for record in _records(folder):
        task = build_task(record["archetype"], record["seed"], "train")
        if not task.solvable or task.is_multipage:
            assert record["episode_kind"] == "normal"


def test_only_train_rows(run: tuple[Path, str]) -> None:
    assert {split_of_seed(r["seed"]) for r in _records(run[0])} == {"train"}
    registry = default_registry()
    eval_row = Row("text_by_id", seed_for("eval", 0), "eval")

    async def build() -> None:
        async with make_executor("local", pool_size=1) as executor:
            await expert_episodes([eval_row], registry, executor)

    with pytest.raises(ValueError, match="train split only"):
        asyncio.run(build())


def _trained_text(tokenizer: Any, record: dict[str, Any]) -> str:
    from bs4_lab.render import render_record

    sequence = render_record(tokenizer, record)
    return str(tokenizer.decode([t for t, m in zip(sequence.ids, sequence.mask, strict=True) if m]))


def _check_loss_text(tokenizer: Any, record: dict[str, Any]) -> None:
    """The learning run's renderer trains the final reply and never a tool reply (the
    budget message, a traceback) or a deliberately wrong program."""
    trained = _trained_text(tokenizer, record)
    assert record["messages"][-1]["content"] in trained
    assert "used up" not in trained and "Traceback" not in trained
    calls = sum(bool(m.get("tool_calls")) for m in record["messages"])
    assert trained.count("<tool_call>") == calls - len(record["untrained_turns"])


def test_episodes_render_with_the_qwen25_template(run: tuple[Path, str]) -> None:
    tokenizer, renderer = _tiny()
    drop_nulls, deserialize = _prime_rl_message_steps()
    for record in _records(run[0]):
        if record["episode_kind"] == "normal":
            continue
        tools = json.loads(record["tools"])
        messages = deserialize([drop_nulls(m) for m in _arrow_union(record["messages"])])
        _check_ids_and_mask(tokenizer, renderer, messages, tools)
        _check_loss_text(tokenizer, record)


@pytest.mark.skipif(
    not GGUF.is_file(),
    reason="needs the local model: ../shared/tools/local-model-setup.sh 0.5b (never in CI)",
)
def test_episodes_render_with_the_gguf_template(run: tuple[Path, str]) -> None:
    pytest.importorskip("gguf")
    from bs4_lab.qwen_tokenizer import tokenizer_from_gguf

    tokenizer = tokenizer_from_gguf(GGUF)
    for record in _records(run[0]):
        if record["episode_kind"] != "normal":
            _check_loss_text(tokenizer, record)


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    _run(first, rows=12, seed=5)
    _run(second, rows=12, seed=5)
    assert (first / "train.jsonl").read_bytes() == (second / "train.jsonl").read_bytes()
    assert (first / "summary.json").read_bytes() == (second / "summary.json").read_bytes()


def test_expert_episodes_of_given_rows_are_the_commands(run: tuple[Path, str]) -> None:
    """For the same rows and kind, the public builder gives the command's records."""
    records = [r for r in _records(run[0]) if r["episode_kind"] == "normal"][:4]
    rows = [Row(r["archetype"], r["seed"], "train") for r in records]

    async def build() -> tuple[list[dict[str, Any] | None], dict[str, Any]]:
        async with make_executor("local", pool_size=2) as executor:
            made, _, report = await expert_episodes(
                rows, default_registry(), executor, 0, Mix(0.0, 0.0, 0.0)
            )
            return made, report

    made, report = asyncio.run(build())
    assert report["kept"]["normal"] == len(rows)
    assert [json.dumps(m, sort_keys=True) for m in made] == [
        json.dumps(r, sort_keys=True) for r in records
    ]


def test_mix_arguments() -> None:
    assert Mix().shares()["normal"] == pytest.approx(0.55)
    assert sum(Mix(0.3, 0.3, 0.1).targets(37).values()) == 37
    assert parse_mix("budget=0.2").recovery == Mix().recovery
    for bad in ("recovery=2", "fix=0.1", "recovery", "recovery=x", "recovery=0.6,budget=0.6"):
        with pytest.raises(ValueError):
            parse_mix(bad)
    assert main(["sft-data", "-n", "2", "--mix", "nope=1", "--out", "/tmp/unused"]) == 2


def test_guessed_names_differ_from_the_real_ones() -> None:
    for name in ("price", "review-author", "store_card", "cc-code"):
        assert name not in class_variants(name) and class_variants(name)
    for key in ("priceCurrency", "rating_value", "href", "items"):
        assert key not in key_variants(key) and key_variants(key)
