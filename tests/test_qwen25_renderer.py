"""The typed Qwen2.5 renderer gives the chat template's token ids and trains only what the
model samples.

``bs4_env.integrations.qwen25_renderer`` is what the Qwen2.5-Coder SFT configs name as their
custom renderer. Every check takes the tokenizer's own ``apply_chat_template`` as the oracle:

* the ids of ``build_training_sample`` (called as prime-rl's SFT loader calls it) equal the
  template's for ``bs4-env sft-data`` episodes (through prime-rl's own message steps) and for
  hand-made chats the episodes lack (parallel calls, text beside a call, no system turn, no
  tools, a later system turn, non-ASCII text);
* the loss mask is exactly each assistant turn: from the end of the template's generation
  prompt for the chat before it up to and including its ``<|im_end|>``;
* a sampled turn parses back to its content and tool calls, and a prompt extended by
  ``bridge_to_next_turn`` equals the full render.

Each runs with the tiny CI tokenizer and its Qwen2.5-style template
(``bs4_lab.tiny_model``; always) and with the real Qwen2.5-Coder GGUF's tokenizer and
template (``tokenizer_from_gguf``; skipped where the local model is not set up, as in CI).
``renderers`` is a dependency of verifiers, so it is installed wherever this project is.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import Any

import pytest
from renderers import create_renderer
from renderers.base import ToolCallParseStatus, build_training_sample
from renderers.configs import CustomRendererConfig
from test_sft_format import GGUF, sft_episodes

from bs4_env.cli.config_registry import PRIME_RL_DIR, config_files, config_kind
from bs4_env.episode.tool_schema import openai_tools
from bs4_env.integrations.qwen25_renderer import Qwen25Renderer, Qwen25RendererConfig

pytestmark = pytest.mark.integration

Chat = list[dict[str, Any]]
Tools = list[dict[str, Any]] | None
QWEN25_SFT = [
    p
    for p in config_files()
    if config_kind(p) == "sft"
    and tomllib.loads(p.read_text())["model"]["name"].startswith("Qwen/Qwen2.5")
]


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


RUN = "run_python"
# What the episodes do not have: parallel calls and replies, text beside calls, no system
# turn, no tools, a system turn later on, non-ASCII text, and bodies that BPE-merge with the
# template's newlines.
HAND_MADE: list[tuple[str, Chat, bool]] = [
    (
        "parallel calls",
        [
            {"role": "system", "content": "Extract data."},
            {"role": "user", "content": "Both prices, please."},
            {
                "role": "assistant",
                "content": "I'll read both tables.",
                "tool_calls": [
                    _call("a", RUN, {"code": "print(soup.find('table'))"}),
                    _call("b", RUN, {"code": "print(len(soup.select('tr')))"}),
                ],
            },
            {"role": "tool", "tool_call_id": "a", "content": "<table>\n  <tr>1</tr>\n</table>\n"},
            {"role": "tool", "tool_call_id": "b", "content": "  12"},
            {"role": "assistant", "content": '{"status": "ok", "answer": [1, 2]}'},
        ],
        True,
    ),
    (
        "no system turn",
        [
            {"role": "user", "content": "Größe und Preis — 価格?"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [_call("c", RUN, {"code": "é = 1"})],
            },
            {"role": "tool", "tool_call_id": "c", "content": "{}"},
            {"role": "assistant", "content": "Fertig: 12 €."},
        ],
        True,
    ),
    (
        "no tools",
        [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "Hello.\n"},
            {"role": "system", "content": "Answer in JSON."},
            {"role": "user", "content": "again"},
            {"role": "assistant", "content": "{}"},
        ],
        False,
    ),
]


@pytest.fixture(scope="module")
def episodes(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Chat, Tools]]:
    """``bs4-env sft-data -n 20`` records as prime-rl's SFT loader hands them to the renderer
    (the Arrow loader's null union, then its own ``_drop_null_fields`` and
    ``deserialize_tool_calls``)."""
    out = sft_episodes(tmp_path_factory.mktemp("sft-data"), 20)
    assert len(out) >= 15
    return out


def _tiny() -> tuple[Any, Qwen25Renderer]:
    from bs4_lab.tiny_model import tiny_tokenizer

    tokenizer = tiny_tokenizer()
    # The tiny template's default system turn is shorter than Qwen's.
    config = Qwen25RendererConfig(default_system_prompt="You are a helpful assistant.")
    return tokenizer, Qwen25Renderer(tokenizer, config)


def _gguf() -> tuple[Any, Qwen25Renderer]:
    if not GGUF.is_file():
        pytest.skip(
            "needs the local model: ../shared/tools/local-model-setup.sh 0.5b (never in CI)"
        )
    from bs4_lab.qwen_tokenizer import tokenizer_from_gguf

    tokenizer = tokenizer_from_gguf(GGUF)
    return tokenizer, Qwen25Renderer(tokenizer)  # Qwen's own default system turn


SETUPS: dict[str, Callable[[], tuple[Any, Qwen25Renderer]]] = {"tiny": _tiny, "gguf": _gguf}


@pytest.fixture(scope="module", params=list(SETUPS))
def setup(request: pytest.FixtureRequest) -> tuple[Any, Qwen25Renderer]:
    return SETUPS[request.param]()


def _template(tokenizer: Any, messages: Chat, tools: Tools, prompt: bool = False) -> list[int]:
    ids = tokenizer.apply_chat_template(
        messages, tools=tools, add_generation_prompt=prompt, tokenize=True, return_dict=False
    )
    return list(ids)


def _assistant_spans(tokenizer: Any, messages: Chat, tools: Tools) -> list[tuple[int, int]]:
    """Per assistant turn, ``[start, end)`` from the template alone: from the end of the
    generation prompt of the chat before it, through its ``<|im_end|>`` (its trailing newline
    is the template's)."""
    full = _template(tokenizer, messages, tools)
    spans = []
    for i, message in enumerate(messages):
        if message["role"] == "assistant":
            prompt = _template(tokenizer, messages[:i], tools, prompt=True)
            turn = _template(tokenizer, messages[: i + 1], tools)
            assert full[: len(prompt)] == prompt and full[: len(turn)] == turn
            assert tokenizer.decode(turn[-2:]) == "<|im_end|>\n"
            spans.append((len(prompt), len(turn) - 1))
    return spans


def _check_ids_and_mask(
    tokenizer: Any, renderer: Qwen25Renderer, messages: Chat, tools: Tools
) -> None:
    # As prime-rl's SFTDataset calls it with the default loss mask (assistant only).
    sample = build_training_sample(renderer, messages, tools=tools, ensure_final_stop=True)
    assert list(sample.token_ids) == _template(tokenizer, messages, tools)
    wanted = [False] * len(sample.token_ids)
    for start, end in _assistant_spans(tokenizer, messages, tools):
        wanted[start:end] = [True] * (end - start)
    assert list(sample.loss_mask) == wanted


def test_episodes_render_as_the_template_with_assistant_only_loss(
    setup: tuple[Any, Qwen25Renderer], episodes: list[tuple[Chat, Tools]]
) -> None:
    tokenizer, renderer = setup
    for messages, tools in episodes:
        assert tools == openai_tools()
        _check_ids_and_mask(tokenizer, renderer, messages, tools)


@pytest.mark.parametrize(
    ("name", "messages", "with_tools"), HAND_MADE, ids=[c[0] for c in HAND_MADE]
)
def test_hand_made_chats_render_as_the_template(
    setup: tuple[Any, Qwen25Renderer], name: str, messages: Chat, with_tools: bool
) -> None:
    tokenizer, renderer = setup
    _check_ids_and_mask(tokenizer, renderer, messages, openai_tools() if with_tools else None)


def test_generation_prompt_and_bodies(setup: tuple[Any, Qwen25Renderer]) -> None:
    tokenizer, renderer = setup
    _, messages, _ = HAND_MADE[0]
    tools = openai_tools()
    rendered = renderer.render(messages[:5], tools=tools, add_generation_prompt=True)
    assert rendered.token_ids == _template(tokenizer, messages[:5], tools, prompt=True)
    assert rendered.message_indices[-3:] == [-1, -1, -1]  # <|im_start|> "assistant" "\n"
    for i in (1, 3, 4):  # user and tool bodies: the content, and nothing of the wrapping
        body = [
            t
            for t, k, c in zip(
                rendered.token_ids, rendered.message_indices, rendered.is_content, strict=True
            )
            if k == i and c
        ]
        assert tokenizer.decode(body).strip() == messages[i]["content"].strip()
    sampled = zip(rendered.message_indices, rendered.sampled_mask, strict=True)
    assert {k for k, s in sampled if s} == {2}  # only the assistant turn is sampled


def _turns(
    renderer: Qwen25Renderer, messages: Chat, tools: Tools
) -> list[tuple[int, list[int], list[int]]]:
    """Per assistant turn: its index, the prompt before it and the tokens it samples."""
    out = []
    for i, message in enumerate(messages):
        if message["role"] == "assistant":
            prompt = renderer.render_ids(messages[:i], tools=tools, add_generation_prompt=True)
            rendered = renderer.render(messages[: i + 1], tools=tools)
            sampled = [
                t
                for t, s, k in zip(
                    rendered.token_ids, rendered.sampled_mask, rendered.message_indices, strict=True
                )
                if s and k == i
            ]
            assert rendered.token_ids[len(prompt) : len(prompt) + len(sampled)] == sampled
            out.append((i, prompt, sampled))
    return out


def test_sampled_turns_parse_back(
    setup: tuple[Any, Qwen25Renderer], episodes: list[tuple[Chat, Tools]]
) -> None:
    _, renderer = setup
    chats = [(m, t) for m, t in episodes[:5]] + [
        (m, openai_tools() if w else None) for _, m, w in HAND_MADE
    ]
    for messages, tools in chats:
        for i, _, sampled in _turns(renderer, messages, tools):
            assert sampled[-1] in renderer.get_stop_token_ids()
            parsed = renderer.parse_response(sampled, tools=tools)
            message = messages[i]
            assert parsed.content == (message["content"] or "").strip()
            assert parsed.reasoning_content is None
            wanted = [
                (c["function"]["name"], c["function"]["arguments"])
                for c in message.get("tool_calls") or []
            ]
            assert [(c.name, c.arguments) for c in parsed.tool_calls] == wanted
            assert all(c.status == ToolCallParseStatus.OK for c in parsed.tool_calls)


def test_broken_calls_are_reported(setup: tuple[Any, Qwen25Renderer]) -> None:
    tokenizer, renderer = setup
    ids = tokenizer.encode(
        "Let me look.\n<tool_call>\n"
        '{"name": "run_python", "arguments": {"code": }\n</tool_call>\n'
        '<tool_call>\n{"name": "run_python"',  # invalid JSON, then cut off
        add_special_tokens=False,
    )
    parsed = renderer.parse_response(ids)
    assert parsed.content == "Let me look."
    assert [c.status for c in parsed.tool_calls] == [
        ToolCallParseStatus.INVALID_JSON,
        ToolCallParseStatus.UNCLOSED_BLOCK,
    ]


def test_bridge_extends_a_sampled_turn_like_a_full_render(
    setup: tuple[Any, Qwen25Renderer], episodes: list[tuple[Chat, Tools]]
) -> None:
    _, renderer = setup
    chats = [(m, t) for m, t in episodes[:5]] + [(HAND_MADE[0][1], openai_tools())]
    for messages, tools in chats:
        for i, prompt, sampled in _turns(renderer, messages, tools):
            j = i + 1
            while j < len(messages) and messages[j]["role"] != "assistant":
                j += 1
            if j == len(messages):
                continue
            bridged = renderer.bridge_to_next_turn(
                prompt, sampled, messages[i + 1 : j], tools=tools
            )
            assert bridged is not None
            assert bridged.token_ids == renderer.render_ids(
                messages[:j], tools=tools, add_generation_prompt=True
            )
            # cut off mid-call: closed with <|im_end|> as if sampled
            cut = renderer.bridge_to_next_turn(
                prompt, sampled[:-1], messages[i + 1 : j], tools=tools
            )
            assert cut is not None and cut.token_ids == bridged.token_ids
    assert renderer.bridge_to_next_turn([1], [2], [{"role": "assistant", "content": "x"}]) is None


def test_sft_configs_load_this_renderer_the_way_prime_rl_does() -> None:
    """The Qwen2.5 SFT configs' ``[renderer]`` table, through renderers' own config class and
    ``create_renderer`` (what prime-rl's SFT trainer calls), builds this renderer."""
    assert len(QWEN25_SFT) >= 2
    tokenizer, _ = _tiny()
    for path in QWEN25_SFT:
        table = tomllib.loads(path.read_text())["renderer"]
        renderer = create_renderer(tokenizer, CustomRendererConfig.model_validate(table))
        assert type(renderer) is Qwen25Renderer, path.relative_to(PRIME_RL_DIR)
        assert renderer.config == Qwen25RendererConfig()


def test_a_tokenizer_without_qwen_markers_is_refused() -> None:
    tokenizer, _ = _tiny()
    with pytest.raises(ValueError, match="not a single token"):
        Qwen25Renderer(_Missing(tokenizer))


def test_a_tokenizer_without_offsets_is_refused() -> None:
    """Attribution comes from character offsets: a plain ``encode``/``decode`` tokenizer
    (renderers' minimal ``Tokenizer``) gets a clear error, not a wrong loss mask."""
    tokenizer, _ = _tiny()
    renderer = Qwen25Renderer(_Plain(tokenizer))
    with pytest.raises(ValueError, match="character offsets"):
        renderer.render([{"role": "user", "content": "hi"}])


class _Plain:
    """Only what renderers' ``Tokenizer`` protocol asks for: no offsets."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.name_or_path, self.unk_token_id, self.eos_token_id = "plain", None, None

    def encode(self, text: str, **kwargs: Any) -> list[int]:
        return list(self._inner.encode(text, **kwargs))

    def decode(self, ids: list[int], **kwargs: Any) -> str:
        return str(self._inner.decode(ids, **kwargs))

    def convert_tokens_to_ids(self, token: str) -> Any:
        return self._inner.convert_tokens_to_ids(token)


class _Missing:
    """A tokenizer whose vocabulary has no ``<tool_call>``."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.unk_token_id = None

    def convert_tokens_to_ids(self, token: str) -> int | None:
        return None if token == "<tool_call>" else self._inner.convert_tokens_to_ids(token)
