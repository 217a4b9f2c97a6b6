"""Rendering and LoRA updates on the tiny random Qwen2 (torch; no server).

The mask covers exactly the assistant turns; the shared-prefix forward is exact; an SFT step
lowers the batch's loss; a policy-gradient step raises the log-likelihood of a positive-
advantage sample and lowers that of a negative one; a checkpoint round-trips.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.integration  # torch + transformers imports

torch = pytest.importorskip("torch")

from bs4_env.episode.tool_schema import openai_tools  # noqa: E402
from bs4_lab.render import (  # noqa: E402
    RenderError,
    render_episode,
    render_record,
    shared_prefix_length,
    template_messages,
)
from bs4_lab.tiny_model import tiny_qwen2  # noqa: E402
from bs4_lab.trainer import LoraTrainer, TrainConfig  # noqa: E402

SYSTEM = {"role": "system", "content": "You extract data from HTML with BeautifulSoup."}


def _episode(code: str, answer: str) -> list[dict[str, Any]]:
    call = {
        "id": "call_0",
        "type": "function",
        "function": {"name": "run_python", "arguments": json.dumps({"code": code})},
    }
    return [
        SYSTEM,
        {"role": "user", "content": "What is the title?"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_0", "name": "run_python", "content": "Hello"},
        {"role": "assistant", "content": answer},
    ]


@pytest.fixture(scope="module")
def tiny() -> tuple[Any, Any]:
    return tiny_qwen2(0)


def test_mask_covers_exactly_the_assistant_turns(tiny: tuple[Any, Any]) -> None:
    _, tokenizer = tiny
    answer = '{"status": "ok", "answer": "Hello"}'
    sequence = render_episode(tokenizer, _episode("print(soup.title.string)", answer), [])
    trained = tokenizer.decode([t for t, m in zip(sequence.ids, sequence.mask, strict=True) if m])
    untrained = tokenizer.decode(
        [t for t, m in zip(sequence.ids, sequence.mask, strict=True) if not m]
    )
    assert "<tool_call>" in trained and "print(soup.title.string)" in trained
    assert answer in trained and trained.endswith("<|im_end|>")
    assert trained.count("<|im_end|>") == 2
    assert "What is the title?" in untrained and "extract data" in untrained
    assert "Hello" in untrained  # the tool reply is the environment's, never trained
    assert "What is the title?" not in trained


def test_untrained_turns_leave_the_loss(tiny: tuple[Any, Any]) -> None:
    _, tokenizer = tiny
    answer = '{"status": "ok", "answer": "Hello"}'
    messages = _episode("print(soup.find('h9').text)", answer)
    full = render_episode(tokenizer, messages, [])
    sequence = render_episode(tokenizer, messages, [], untrained=[2])
    assert sequence.ids == full.ids  # the model still reads the wrong program
    trained = tokenizer.decode([t for t, m in zip(sequence.ids, sequence.mask, strict=True) if m])
    assert trained == answer + "<|im_end|>"
    assert render_record(tokenizer, {"messages": messages, "tools": "[]"}).mask == full.mask
    record = {"messages": messages, "tools": "[]", "untrained_turns": [2]}
    assert render_record(tokenizer, record).mask == sequence.mask
    for wrong in ([3], [9]):  # a tool reply, past the end
        with pytest.raises(RenderError, match="not assistant messages"):
            render_episode(tokenizer, messages, [], untrained=wrong)
    with pytest.raises(RenderError, match="no assistant turn"):
        render_episode(tokenizer, messages, [], untrained=[2, 4])


def test_arguments_become_objects_and_bad_ones_are_refused() -> None:
    messages = template_messages(_episode("x = 1", "done"))
    assert messages[2]["tool_calls"][0]["function"]["arguments"] == {"code": "x = 1"}
    broken = _episode("x", "done")
    broken[2]["tool_calls"][0]["function"]["arguments"] = '{"code": '
    with pytest.raises(RenderError, match="not JSON"):
        template_messages(broken)


def test_shared_prefix_forward_is_exact(tiny: tuple[Any, Any]) -> None:
    _, tokenizer = tiny
    tools = openai_tools()
    sequences = [
        render_episode(tokenizer, _episode(f"print({i})", f"answer {i}"), tools) for i in range(3)
    ]
    prefix = shared_prefix_length(sequences)
    assert prefix > 100  # the system prompt and the tool schemas
    assert all(s.mask.index(True) > prefix for s in sequences)
    trainer = LoraTrainer(tiny_qwen2(0)[0], TrainConfig(seed=0))
    for sequence in sequences:
        assert trainer.sequence_nll(sequence, prefix) == pytest.approx(
            trainer.sequence_nll(sequence, 0), rel=1e-5
        )


def test_sft_lowers_loss_and_policy_gradient_follows_the_advantage(tmp_path: Path) -> None:
    model, tokenizer = tiny_qwen2(1)
    good = render_episode(tokenizer, _episode("print(soup.h1)", "the good answer"), [])
    bad = render_episode(tokenizer, _episode("print(soup.p)", "a wrong reply"), [])
    prefix = shared_prefix_length([good, bad])
    trainer = LoraTrainer(model, TrainConfig(learning_rate=1e-2, seed=0))
    before = trainer.sequence_nll(good, prefix)
    for _ in range(3):
        trainer.step([(good, 1.0)], prefix)
    assert trainer.sequence_nll(good, prefix) < before

    good_before, bad_before = trainer.sequence_nll(good, prefix), trainer.sequence_nll(bad, prefix)
    trainer.step([(good, 0.5), (bad, -0.5)], prefix)
    assert trainer.sequence_nll(good, prefix) < good_before
    assert trainer.sequence_nll(bad, prefix) > bad_before

    trainer.save(tmp_path / "ckpt")
    again = LoraTrainer(tiny_qwen2(1)[0], TrainConfig(learning_rate=1e-2, seed=0))
    again.load(tmp_path / "ckpt")
    assert again.steps == trainer.steps == 4
    assert again.sequence_nll(good, prefix) == pytest.approx(trainer.sequence_nll(good, prefix))
    fresh = LoraTrainer(tiny_qwen2(1)[0], TrainConfig(learning_rate=1e-2, seed=0))
    fresh.load(tmp_path / "ckpt", adapter_only=True)
    assert fresh.steps == 0


def test_bad_batches_are_refused() -> None:
    model, tokenizer = tiny_qwen2(2)
    one = render_episode(tokenizer, _episode("print(1)", "a"), [])
    trainer = LoraTrainer(model, TrainConfig(seed=0))
    with pytest.raises(ValueError, match="empty batch"):
        trainer.step([], 0)
    with pytest.raises(ValueError, match="non-finite"):
        trainer.step([(one, float("nan"))], 0)
    other = render_episode(
        tokenizer, [{"role": "system", "content": "other"}, *_episode("x", "b")[1:]], []
    )
    with pytest.raises(ValueError, match="shared prefix"):
        trainer.step([(one, 1.0), (other, 1.0)], 12)
    with pytest.raises(RenderError, match="no assistant turn"):
        render_episode(tokenizer, _episode("x", "b")[:2], [])


def test_group_advantages_and_rl_rows_are_seeded() -> None:
    from bs4_env.tasks.splits import split_of_seed
    from bs4_lab.rl_stage import advantages, step_rows

    assert advantages([1.0, 0.0, 0.0, 1.0]) == [0.5, -0.5, -0.5, 0.5]
    assert advantages([0.5, 0.5]) == [0.0, 0.0]
    rows = step_rows(["a", "b"], 3, 5, seed=0)
    assert rows == step_rows(["a", "b"], 3, 5, seed=0) != step_rows(["a", "b"], 4, 5, seed=0)
    assert all(a in ("a", "b") and split_of_seed(s) == "train" for a, s in rows)


def _tag_margin(trainer: LoraTrainer, sequence: Any, tag: int, rival: int) -> float:
    """Logit of ``tag`` minus that of ``rival`` where the sequence first writes ``tag``."""
    position = sequence.ids.index(tag)
    with torch.no_grad():
        logits = trainer.model(input_ids=torch.tensor([sequence.ids[:position]])).logits[0, -1]
    return float(logits[tag] - logits[rival])


def test_token_rows_make_an_untrained_tag_writable(tmp_path: Path) -> None:
    """The real failure, in small: the tag's rows equal another token's (as Qwen2.5-Coder-0.5B's
    unused special tokens are), so a LoRA alone can never rank the tag above it; trained rows
    can. Their checkpoint round-trips and a trainer of the other kind refuses it."""
    from bs4_lab.token_rows import tag_ids

    def twinned() -> tuple[Any, list[int], int]:
        model, tokenizer = tiny_qwen2(3)
        tags = tag_ids(tokenizer)
        rival = tokenizer.convert_tokens_to_ids("<|im_start|>")
        with torch.no_grad():
            for matrix in (model.get_input_embeddings().weight, model.lm_head.weight):
                matrix[tags] = matrix[rival].clone()
        return model, tags, rival

    _, tokenizer = tiny_qwen2(3)
    episode = render_episode(tokenizer, _episode("print(soup.h1)", "done"), openai_tools())
    prefix = shared_prefix_length([episode])
    model, tags, rival = twinned()
    lora_only = LoraTrainer(model, TrainConfig(learning_rate=1e-2, seed=0))
    model, tags, rival = twinned()
    with_rows = LoraTrainer(model, TrainConfig(learning_rate=1e-2, seed=0), tags)
    first = with_rows.step([(episode, 1.0)], prefix)
    lora_only.step([(episode, 1.0)], prefix)
    for _ in range(15):
        lora_only.step([(episode, 1.0)], prefix)
        last = with_rows.step([(episode, 1.0)], prefix)
    assert _tag_margin(lora_only, episode, tags[0], rival) == pytest.approx(0.0, abs=1e-4)
    assert _tag_margin(with_rows, episode, tags[0], rival) > 0.1
    assert first.row_token_nll is not None and last.row_token_nll is not None
    assert last.row_token_nll < first.row_token_nll / 2

    with_rows.save(tmp_path / "ckpt")
    model, tags, rival = twinned()
    again = LoraTrainer(model, TrainConfig(learning_rate=1e-2, seed=0), tags)
    again.load(tmp_path / "ckpt")
    assert again.sequence_nll(episode, prefix) == pytest.approx(
        with_rows.sequence_nll(episode, prefix)
    )
    with pytest.raises(ValueError, match="token rows present"):
        LoraTrainer(twinned()[0], TrainConfig(seed=0)).load(tmp_path / "ckpt")
    lora_only.save(tmp_path / "plain")
    with pytest.raises(ValueError, match="token rows missing"):
        LoraTrainer(twinned()[0], TrainConfig(seed=0), tags).load(tmp_path / "plain")
    with pytest.raises(ValueError, match="for ids"):
        LoraTrainer(twinned()[0], TrainConfig(seed=0), tags[::-1]).load(tmp_path / "ckpt")


def test_token_rows_refuse_tied_matrices_and_bad_ids() -> None:
    from transformers import Qwen2ForCausalLM

    from bs4_lab.token_rows import TokenRows, tag_ids

    model, tokenizer = tiny_qwen2(4)
    with pytest.raises(ValueError, match="distinct"):
        TokenRows(model, [5, 5])
    with pytest.raises(ValueError, match="below"):
        TokenRows(model, [len(tokenizer) + 10])
    with pytest.raises(ValueError, match="not one token"):
        tag_ids(tokenizer, ["<no such tag>"])
    config = model.config
    config.tie_word_embeddings = True
    tied = Qwen2ForCausalLM(config)
    with pytest.raises(ValueError, match="ties its output"):
        TokenRows(tied, tag_ids(tokenizer))
