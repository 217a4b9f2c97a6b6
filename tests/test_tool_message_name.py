"""``name`` on tool messages: what the chat templates we train render, both ways.

Qwen2.5's template (the GGUF's, and the tiny CI model's copy of its shape) and Qwen3's write a
tool reply as ``<tool_response>\\ncontent\\n</tool_response>`` and never read ``name``; so do
the renderers prime-rl trains them with (``default`` = the tokenizer's template, this package's
typed Qwen2.5 renderer, renderers' typed ``qwen3``). Tokens are therefore identical with and
without it (checked here on real episodes), and every path we control sends it: templates that
do render it (GPT-OSS Harmony's ``functions.<name>``) need it, and verifiers 0.4's null harness
sends it too. The harness prime-rl pins omits it; for the models we train that changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_sft_format import GGUF, _arrow_union, _prime_rl_message_steps, sft_episodes

from bs4_env.cli.main import main

pytestmark = pytest.mark.integration

Chat = list[dict[str, Any]]
QWEN3_TOKENS = ["<tool_response>", "</tool_response>", "<think>", "</think>"]


@pytest.fixture(scope="module")
def episodes(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Chat, list[Any]]]:
    """``bs4-env sft-data`` records as prime-rl's SFT loader hands them to a renderer."""
    return sft_episodes(tmp_path_factory.mktemp("sft-data"), 6)


def _without_names(messages: Chat) -> Chat:
    return [
        {k: v for k, v in m.items() if not (m["role"] == "tool" and k == "name")} for m in messages
    ]


def test_every_tool_reply_we_write_names_its_tool(episodes: list[tuple[Chat, list[Any]]]) -> None:
    from bs4_env.evaluation.rollout import tool_message
    from bs4_env.evaluation.turns import ToolCall

    for messages, _tools in episodes:
        calls = {c["id"]: c["function"]["name"] for m in messages for c in m.get("tool_calls", [])}
        replies = [m for m in messages if m["role"] == "tool"]
        assert replies and all(m["name"] == calls[m["tool_call_id"]] for m in replies)
    assert tool_message(ToolCall("c1", "navigate", "{}"), "ok")["name"] == "navigate"


def _tiny() -> Any:
    pytest.importorskip("transformers")
    from bs4_lab.tiny_model import tiny_tokenizer

    return tiny_tokenizer()


def _ids(tokenizer: Any, messages: Chat, tools: list[Any]) -> list[int]:
    ids = tokenizer.apply_chat_template(messages, tools=tools, tokenize=True, return_dict=False)
    return list(ids)


def _assert_name_changes_nothing(render: Any, episodes: list[tuple[Chat, list[Any]]]) -> None:
    for messages, tools in episodes:
        named, bare = render(messages, tools), render(_without_names(messages), tools)
        assert named == bare
        assert len(named) > 100


def test_qwen25_template_ignores_the_name(episodes: list[tuple[Chat, list[Any]]]) -> None:
    tokenizer = _tiny()
    _assert_name_changes_nothing(lambda m, t: _ids(tokenizer, m, t), episodes)


@pytest.mark.skipif(
    not GGUF.is_file(),
    reason="needs the local model: ../shared/tools/local-model-setup.sh 0.5b (never in CI)",
)
def test_qwen25_gguf_template_ignores_the_name(episodes: list[tuple[Chat, list[Any]]]) -> None:
    from bs4_lab.qwen_tokenizer import tokenizer_from_gguf

    tokenizer = tokenizer_from_gguf(GGUF)
    _assert_name_changes_nothing(lambda m, t: _ids(tokenizer, m, t), episodes)


def test_typed_renderers_ignore_the_name(episodes: list[tuple[Chat, list[Any]]]) -> None:
    """This package's Qwen2.5 renderer and renderers' Qwen3 one (the tiny tokenizer with
    Qwen3's added tokens), token for token."""
    pytest.importorskip("renderers")
    from renderers.qwen3 import Qwen3Renderer

    from bs4_env.integrations.qwen25_renderer import Qwen25Renderer

    tokenizer = _tiny()
    qwen25 = Qwen25Renderer(tokenizer)
    _assert_name_changes_nothing(lambda m, t: qwen25.render(m, tools=t).token_ids, episodes)
    qwen3_tokenizer = _tiny()
    qwen3_tokenizer.add_tokens(QWEN3_TOKENS)
    qwen3 = Qwen3Renderer(qwen3_tokenizer)
    _assert_name_changes_nothing(lambda m, t: qwen3.render(m, tools=t).token_ids, episodes)


def test_sft_records_parse_with_names(tmp_path: Path) -> None:
    """The Arrow loader's null union keeps ``name`` only on tool messages."""
    assert main(["sft-data", "-n", "2", "--out", str(tmp_path)]) == 0
    record = json.loads((tmp_path / "train.jsonl").read_text().splitlines()[0])
    drop_nulls, _ = _prime_rl_message_steps()
    messages = [drop_nulls(m) for m in _arrow_union(record["messages"])]
    assert {m["role"] for m in messages if "name" in m} == {"tool"}
