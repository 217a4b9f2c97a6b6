"""The episodes' format survives prime-rl's SFT data path and the real chat template.

CI-safe (always): records written by ``bs4-env sft-data`` go through prime-rl's own message
steps at the pinned commit (``_drop_null_fields`` and ``deserialize_tool_calls``, read from the
vendored tarball; the Arrow loader's null-filled union is simulated), and come out as the
chat a rollout has: tools equal to ``openai_tools()``, arguments as dicts, tool replies after
their calls.

With the Qwen2.5-Coder GGUF (``/work/shared/tools/local-model-setup.sh 0.5b``; the ``gguf``
package importable; path in ``BS4_GGUF`` or the setup script's default), the tokenizer is
built from the GGUF by ``bs4_lab.qwen_tokenizer.tokenizer_from_gguf``
(``<tool_call>``/``</tool_call>`` as added tokens, eos ``<|im_end|>``),
the GGUF's own chat template renders each episode, and the tool calls parsed back from the
assistant tokens must equal the episode's; renderers' typed ``qwen3`` renderer refuses this
tokenizer (the typed Qwen2.5 renderer is ``tests/test_qwen25_renderer.py``'s).
"""

from __future__ import annotations

import ast
import asyncio
import json
import os
import tarfile
from pathlib import Path
from typing import Any

import pytest

from bs4_env.episode.executors import make_executor
from bs4_env.episode.tool_schema import openai_tools
from bs4_env.sft.build import Tally, episode_for
from bs4_env.tasks.registry import default_registry
from bs4_env.tasks.splits import Row, seed_for

VENDOR = Path(__file__).resolve().parents[2] / "shared" / "vendor" / "prime-rl-559b447.tar.gz"
GGUF = Path(
    os.environ.get(
        "BS4_GGUF",
        Path.home() / ".cache/bs4-localmodel/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    )
)
SAMPLE = (
    "text_by_id",
    "table_dicts_by_header",
    "canvas_text",
    "item_list_nested",
    "multipage_navigate",
)


def _vendor_source(member: str) -> str:
    if not VENDOR.is_file():
        pytest.fail(f"{VENDOR} is missing: prime-rl's SFT loader is read from the vendored source")
    with tarfile.open(VENDOR) as archive:
        handle = archive.extractfile(f"prime-rl-559b447/{member}")
        assert handle is not None
        return handle.read().decode()


def _prime_rl_message_steps() -> tuple[Any, Any]:
    """prime-rl's own ``_drop_null_fields`` and ``deserialize_tool_calls`` (no torch needed)."""
    namespace: dict[str, Any] = {"Any": Any}
    exec(_vendor_source("src/prime_rl/utils/chat_template.py"), namespace)
    data = ast.parse(_vendor_source("src/prime_rl/trainer/sft/data.py"))
    (node,) = [
        n for n in data.body if isinstance(n, ast.FunctionDef) and n.name == "_drop_null_fields"
    ]
    exec(compile(ast.Module([node], []), "data.py", "exec"), namespace)
    return namespace["_drop_null_fields"], namespace["deserialize_tool_calls"]


async def _records() -> list[dict[str, Any]]:
    registry = default_registry()
    out = []
    async with make_executor("local", pool_size=2) as executor:
        for i, archetype_id in enumerate(SAMPLE):
            row = Row(archetype_id, seed_for("train", 40 + i), "train")
            record = await episode_for(row, registry, executor, 0, Tally())
            assert record is not None, archetype_id
            out.append(json.loads(json.dumps(record)))  # the JSONL round trip
    return out


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return asyncio.run(_records())


def _arrow_union(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the Hugging Face json loader hands over: every message has every key."""
    keys = {key for message in messages for key in message}
    return [{key: message.get(key) for key in sorted(keys)} for message in messages]


def sft_episodes(folder: Path, n: int) -> list[tuple[list[dict[str, Any]], list[Any]]]:
    """``bs4-env sft-data -n N`` records as prime-rl's SFT loader hands them to a renderer
    (the Arrow loader's null union, then its own ``_drop_null_fields`` and
    ``deserialize_tool_calls``): (messages, tools) per episode."""
    from bs4_env.cli.main import main

    assert main(["sft-data", "-n", str(n), "--out", str(folder)]) == 0
    drop_nulls, deserialize = _prime_rl_message_steps()
    out = []
    for line in (folder / "train.jsonl").read_text().splitlines():
        record = json.loads(line)
        messages = deserialize([drop_nulls(m) for m in _arrow_union(record["messages"])])
        out.append((messages, json.loads(record["tools"])))
    return out


def test_records_pass_prime_rl_message_steps(records: list[dict[str, Any]]) -> None:
    drop_nulls, deserialize = _prime_rl_message_steps()
    for record in records:
        assert json.loads(record["tools"]) == openai_tools()
        messages = deserialize([drop_nulls(m) for m in _arrow_union(record["messages"])])
        assert [m["role"] for m in messages[:2]] == ["system", "user"]
        assert messages[-1]["role"] == "assistant" and "tool_calls" not in messages[-1]
        pending: list[str] = []
        for message in messages[2:-1]:
            if message["role"] == "assistant":
                (call,) = message["tool_calls"]
                assert isinstance(call["function"]["arguments"], dict)
                assert set(call["function"]["arguments"]) <= {"code", "href"}
                pending.append(call["id"])
            else:
                assert message["role"] == "tool" and message["tool_call_id"] == pending.pop(0)
        assert not pending


def test_arrow_nulls_would_break_without_prime_rl_steps(records: list[dict[str, Any]]) -> None:
    """The null union is real: without the loader's own step the tool messages carry
    ``tool_calls: None`` (the check above can fail)."""
    unioned = _arrow_union(records[0]["messages"])
    assert any(m["role"] == "tool" and "tool_calls" in m for m in unioned)


def _gguf_tokenizer(path: Path) -> Any:
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    pytest.importorskip("transformers")
    from bs4_lab.qwen_tokenizer import tokenizer_from_gguf

    return tokenizer_from_gguf(path)


@pytest.mark.skipif(
    not GGUF.is_file(),
    reason="needs the local model: ../shared/tools/local-model-setup.sh 0.5b (never in CI)",
)
def test_gguf_template_round_trips_tool_calls(records: list[dict[str, Any]]) -> None:
    from renderers.base import build_training_sample
    from renderers.default import DefaultRenderer
    from renderers.qwen3 import Qwen3Renderer

    tokenizer = _gguf_tokenizer(GGUF)
    _, deserialize = _prime_rl_message_steps()
    renderer = DefaultRenderer(tokenizer)  # the GGUF's own chat template
    for record in records:
        tools = json.loads(record["tools"])
        messages = deserialize(record["messages"])
        sample = build_training_sample(
            renderer, messages, tools=tools, role_to_mask=lambda m: m["role"] == "assistant"
        )
        trained = [t for t, m in zip(sample.token_ids, sample.loss_mask, strict=True) if m]
        text = tokenizer.decode(trained)
        calls = [
            json.loads(part.split("</tool_call>")[0]) for part in text.split("<tool_call>")[1:]
        ]
        wanted = [
            {"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"])}
            for m in record["messages"]
            for c in m.get("tool_calls") or []
        ]
        assert calls == wanted
        assert record["messages"][-1]["content"] in text
        assert tokenizer.convert_tokens_to_ids("<tool_call>") in trained
    # prime-rl main's SFT rejects DefaultRenderer, and renderers' typed qwen3 renderer needs
    # <tool_response> as one token, which Qwen2.5's vocabulary lacks: the Qwen2.5-Coder SFT
    # configs name this package's typed renderer instead (bs4_env.integrations.qwen25_renderer,
    # checked token for token against this template in tests/test_qwen25_renderer.py).
    with pytest.raises(AssertionError, match="tool_response"):
        Qwen3Renderer(tokenizer)
