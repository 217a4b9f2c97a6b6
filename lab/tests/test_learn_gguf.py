"""The learning run's serving path, end to end on the tiny model: HF model -> GGUF -> llama.cpp.

``bs4-env learn`` trains a LoRA with peft on Hugging Face weights and evaluates base and tuned
model through llama.cpp (base GGUF + adapter GGUF). These tests build the tiny random Qwen2
(:mod:`bs4_lab.tiny_model`) in memory, write it with ``write_base_gguf``, serve it with
``LlamaServer`` and check that llama.cpp computes what Hugging Face computes:

* the chat template renders the same text (tools, tool calls, tool replies) and llama.cpp's
  tokenizer gives the HF tokenizer's ids;
* greedy decoding and the next-token log-probabilities agree for the f32 model, and for the
  model plus a LoRA on all seven projections with random non-zero B (alpha != r, so the
  alpha / r scaling is checked: the same adapter at scale 1 would not match);
* an adapter trained here to emit a ``<tool_call>`` block makes llama.cpp answer with OpenAI
  ``tool_calls``, while the same call written as bare JSON stays content (strict parsing), and
  so does ``<tool_call>{...}</tool_call>`` on one line; a call cut by ``max_tokens`` comes back
  as "length" with partial arguments;
* trained rows of the tool-call tags (:mod:`bs4_lab.token_rows`) served in the same
  adapter give HF's log-probabilities for every token;
* ``write_lora_gguf`` refuses modules llama.cpp would not apply, and a server that cannot load
  its model fails with its log.

``tokenizer_from_gguf`` rebuilds the tiny tokenizer from its GGUF; with the real Qwen2.5-Coder
0.5B GGUF present (never in CI), it must give llama.cpp's ids on a rendered chat with tool
calls.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from peft import PeftModel
    from transformers import PreTrainedTokenizerFast, Qwen2ForCausalLM

pytestmark = pytest.mark.integration

REAL_GGUF = Path(
    os.environ.get(
        "BS4_GGUF",
        Path.home() / ".cache/bs4-localmodel/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    )
)
SEVEN = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "navigate",
            "description": "Go to a page",
            "parameters": {
                "type": "object",
                "properties": {"href": {"type": "string"}},
                "required": ["href"],
            },
        },
    }
]
# Log-probabilities of the f32 model: llama.cpp serves it with precise=True (f32 attention);
# they agree to ~1e-5 then (~1e-2 with llama.cpp's f16 flash attention and KV cache).
LOGPROB_TOL = 1e-4


def _call(href: str, arguments_as_text: bool) -> dict[str, Any]:
    """An assistant tool call: OpenAI clients send the arguments as a JSON string, trainers
    (prime-rl's deserialize_tool_calls) as an object."""
    arguments: Any = {"href": href}
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {
                    "name": "navigate",
                    "arguments": json.dumps(arguments) if arguments_as_text else arguments,
                },
            }
        ],
    }


def _chat(arguments_as_text: bool) -> list[dict[str, Any]]:
    return [
        {"role": "system", "content": "Extract what is asked; reply with JSON."},
        {"role": "user", "content": 'Find the price on <span class="price">.'},
        _call("/page/2", arguments_as_text),
        {"role": "tool", "tool_call_id": "call_1", "content": '<span class="price">$3</span>'},
        {"role": "assistant", "content": '{"status": "ok", "answer": 3}'},
        {"role": "user", "content": "And on page 3?"},
    ]


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{url}: HTTP {error.code}: {error.read()[:2000]!r}") from error


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.loads(response.read())


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@dataclass
class Tiny:
    model: Qwen2ForCausalLM
    tokenizer: PreTrainedTokenizerFast
    gguf: Path
    dir: Path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Tiny:
    from bs4_lab.gguf_export import write_base_gguf
    from bs4_lab.tiny_model import tiny_qwen2

    directory = tmp_path_factory.mktemp("learn_gguf")
    model, tokenizer = tiny_qwen2(seed=0)
    path = directory / "tiny.gguf"
    write_base_gguf(model, tokenizer, path)
    return Tiny(model, tokenizer, path, directory)


@pytest.fixture(scope="module")
def base_server(tiny: Tiny) -> Iterator[Any]:
    from bs4_lab.llama_server import LlamaServer

    with LlamaServer(
        tiny.gguf, log_path=tiny.dir / "base.log", alias="tiny-base", ctx_size=2048, precise=True
    ) as server:
        pid = server.pid
        yield server
    assert _gone(pid), "the llama.cpp child outlived the context manager"


def _ids(tokenizer: PreTrainedTokenizerFast, messages: list[dict[str, Any]]) -> list[int]:
    text = tokenizer.apply_chat_template(
        messages, tools=TOOLS, tokenize=False, add_generation_prompt=True
    )
    assert isinstance(text, str)
    return list(tokenizer.encode(text))


def test_serves_chat_completions_with_tools(base_server: Any, tiny: Tiny) -> None:
    assert base_server.base_url == base_server.url + "/v1"
    models = _get(base_server.base_url + "/models")
    assert [m["id"] for m in models["data"]] == ["tiny-base"]
    reply = _post(
        base_server.base_url + "/chat/completions",
        {
            "model": "tiny-base",
            "messages": _chat(arguments_as_text=True),
            "tools": TOOLS,
            "max_tokens": 6,
            "temperature": 0,
            "verbose": True,
        },
    )
    (choice,) = reply["choices"]
    assert choice["message"]["role"] == "assistant"
    assert reply["usage"]["completion_tokens"] <= 6
    # llama.cpp read the template's tool format: <tool_call> opens a call (its grammar trigger)
    # and both tags are kept in the output text (preserved tokens), as for Qwen2.5's template.
    settings = reply["__verbose"]["generation_settings"]
    assert settings["grammar_triggers"] == [{"type": 1, "value": "<tool_call>\n"}]
    tags = tiny.tokenizer.convert_tokens_to_ids(["<tool_call>", "</tool_call>"])
    assert sorted(settings["preserved_tokens"]) == sorted(tags)


def test_template_and_token_ids_match_hf(base_server: Any, tiny: Tiny) -> None:
    rendered = _post(
        base_server.url + "/apply-template",
        {"messages": _chat(arguments_as_text=True), "tools": TOOLS},
    )["prompt"]
    hf_text = tiny.tokenizer.apply_chat_template(
        _chat(arguments_as_text=False), tools=TOOLS, tokenize=False, add_generation_prompt=True
    )
    assert rendered == hf_text
    assert '<tool_call>\n{"name": "navigate", "arguments": {"href": "/page/2"}}\n</tool_call>' in (
        rendered
    )
    tokens = _post(
        base_server.url + "/tokenize",
        {"content": rendered, "add_special": False, "parse_special": True},
    )["tokens"]
    hf_ids = tiny.tokenizer.encode(hf_text)
    assert tokens == hf_ids
    assert tiny.tokenizer.convert_tokens_to_ids("<tool_call>") in hf_ids
    # tokenizer_from_gguf (the real run's tokenizer) rebuilds the same one from the GGUF.
    from bs4_lab.qwen_tokenizer import tokenizer_from_gguf

    rebuilt = tokenizer_from_gguf(tiny.gguf)
    assert rebuilt.chat_template == tiny.tokenizer.chat_template
    assert rebuilt.encode(hf_text) == hf_ids


def _hf_greedy(
    model: Qwen2ForCausalLM | PeftModel, prompt: list[int], steps: int, tiny: Tiny
) -> tuple[list[int], list[dict[int, float]]]:
    """Greedy ids (never a partial-UTF-8 token) and, per step, every token's log-probability
    (full recompute, no cache), up to the first end-of-generation token (llama.cpp stops)."""
    import torch

    banned = torch.tensor(_partial_utf8(tiny))
    stops = set(tiny.tokenizer.convert_tokens_to_ids(["<|im_end|>", "<|endoftext|>"]))
    ids, logprobs = list(prompt), []
    with torch.no_grad():
        for _ in range(steps):
            logits = model(input_ids=torch.tensor([ids])).logits[0, -1].float()
            logprobs.append(dict(enumerate(torch.log_softmax(logits, -1).tolist())))
            top = torch.topk(logits.index_fill(0, banned, float("-inf")), 2)
            # A near tie would let rounding pick either token: the seed must avoid one.
            assert float(top.values[0] - top.values[1]) > 10 * LOGPROB_TOL
            ids.append(int(top.indices[0]))
            if ids[-1] in stops:
                break
    return ids[len(prompt) :], logprobs


def _partial_utf8(tiny: Tiny) -> list[int]:
    """Byte tokens that are not whole UTF-8 characters. llama.cpp holds their text back until
    the character completes, and their log-probabilities with it, so greedy decoding here
    must not produce them (a random model would)."""
    return [i for i in range(len(tiny.tokenizer)) if "\ufffd" in tiny.tokenizer.decode([i])]


def _llama_greedy(
    url: str, prompt: list[int], steps: int, tiny: Tiny
) -> tuple[list[int], list[dict[str, Any]]]:
    reply = _post(
        url + "/completion",
        {
            "prompt": prompt,
            "n_predict": steps,
            "temperature": 0,
            "n_probs": 5,
            "cache_prompt": False,
            "return_tokens": True,
            # Sampling only: the reported log-probabilities are the model's own.
            "logit_bias": [[i, False] for i in _partial_utf8(tiny)],
        },
    )
    ids: list[int] = reply["tokens"]
    probabilities: list[dict[str, Any]] = reply["completion_probabilities"]
    assert [step["id"] for step in probabilities] == ids
    return ids, probabilities


def _assert_agree(
    llama: tuple[list[int], list[dict[str, Any]]], ids: list[int], hf: list[dict[int, float]]
) -> None:
    assert llama[0] == ids
    for step, row in zip(llama[1], hf, strict=True):
        for candidate in step["top_logprobs"]:
            assert candidate["logprob"] == pytest.approx(row[candidate["id"]], abs=LOGPROB_TOL)


def _distance(llama: tuple[list[int], list[dict[str, Any]]], hf: list[dict[int, float]]) -> float:
    """The largest log-probability difference over llama.cpp's top tokens, step by step."""
    return max(
        abs(candidate["logprob"] - row[candidate["id"]])
        for step, row in zip(llama[1], hf, strict=False)
        for candidate in step["top_logprobs"]
    )


PROMPT = [{"role": "user", "content": "Print the title of the page."}]
STEPS = 6


def test_greedy_logprobs_match_hf(base_server: Any, tiny: Tiny) -> None:
    prompt = _ids(tiny.tokenizer, PROMPT)
    ids, hf = _hf_greedy(tiny.model, prompt, STEPS, tiny)
    _assert_agree(_llama_greedy(base_server.url, prompt, STEPS, tiny), ids, hf)


def _peft(tiny: Tiny, r: int, alpha: int, seed: int) -> PeftModel:
    """A LoRA on all seven projections; ``init_lora_weights=False`` draws B at random too."""
    import copy

    import torch
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(
        r=r, lora_alpha=alpha, target_modules=SEVEN, lora_dropout=0.0, init_lora_weights=False
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = get_peft_model(copy.deepcopy(tiny.model), config)
    return model


def _lora_gguf(model: PeftModel, alpha: int, path: Path) -> Path:
    from peft import get_peft_model_state_dict

    from bs4_lab.gguf_export import write_lora_gguf

    state = get_peft_model_state_dict(model)
    assert len(state) == 2 * len(SEVEN) * model.config.num_hidden_layers
    write_lora_gguf(state, alpha, path)
    return path


def test_lora_adapter_matches_hf(base_server: Any, tiny: Tiny) -> None:
    from peft.tuners.lora import LoraLayer

    from bs4_lab.llama_server import LlamaServer

    r, alpha = 4, 16
    tuned = _peft(tiny, r, alpha, seed=1).eval()
    for module in tuned.modules():
        if isinstance(module, LoraLayer):
            assert float(module.lora_B["default"].weight.detach().abs().min()) > 0
    adapter = _lora_gguf(tuned, alpha, tiny.dir / "random-lora.gguf")
    prompt = _ids(tiny.tokenizer, PROMPT)
    ids, hf = _hf_greedy(tuned, prompt, STEPS, tiny)
    with LlamaServer(
        tiny.gguf,
        log_path=tiny.dir / "random-lora.log",
        lora_gguf=adapter,
        ctx_size=2048,
        precise=True,
    ) as server:
        assert server.model == "tiny-lora"
        llama = _llama_greedy(server.url, prompt, STEPS, tiny)
    _assert_agree(llama, ids, hf)
    # The adapter changes the model, and only alpha / r scaling reproduces it.
    base = _llama_greedy(base_server.url, prompt, STEPS, tiny)
    assert _distance(base, hf) > 0.5
    for module in tuned.modules():
        if isinstance(module, LoraLayer):
            module.set_scale("default", r / alpha)  # scaling 1 instead of alpha / r
    _, unscaled = _hf_greedy(tuned, prompt, 1, tiny)
    assert _distance(llama, unscaled) > 0.5


def _next_logprobs(url: str, prompt: list[int], vocab: int) -> dict[int, float]:
    reply = _post(
        url + "/completion",
        {
            "prompt": prompt,
            "n_predict": 1,
            "temperature": 0,
            "n_probs": vocab,
            "cache_prompt": False,
            "return_tokens": True,
        },
    )
    (step,) = reply["completion_probabilities"]
    return {c["id"]: c["logprob"] for c in step["top_logprobs"]}


def test_token_rows_adapter_matches_hf(tiny: Tiny) -> None:
    """Trained rows of the tool-call tags ride in the adapter (token_embd and output LoRAs of
    rank 2): llama.cpp then gives every token, the tags included, HF's log-probability, on a
    prompt that also reads the tags (the input rows)."""
    import torch
    from peft import get_peft_model_state_dict

    from bs4_lab.gguf_export import write_lora_gguf
    from bs4_lab.llama_server import LlamaServer
    from bs4_lab.token_rows import TokenRows, tag_ids

    r, alpha = 4, 16
    tuned = _peft(tiny, r, alpha, seed=3).eval()
    tags = tag_ids(tiny.tokenizer)
    rows = TokenRows(tuned.base_model.model, tags)
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        torch.manual_seed(4)
        rows.input_delta.normal_(0.0, 0.5)
        rows.output_delta.normal_(0.0, 0.5)
    state = get_peft_model_state_dict(tuned)
    with_rows = tiny.dir / "rows-lora.gguf"
    write_lora_gguf(state, alpha, with_rows, extra=rows.lora_tensors(alpha))
    without = _lora_gguf(tuned, alpha, tiny.dir / "rows-missing-lora.gguf")
    prompt = _ids(tiny.tokenizer, _chat(arguments_as_text=False))
    assert tags[0] in prompt and tags[1] in prompt
    with torch.no_grad():
        logits = tuned(input_ids=torch.tensor([prompt])).logits[0, -1]
    hf = torch.log_softmax(logits.float(), -1).tolist()
    vocab = len(tiny.tokenizer)
    served = {}
    for name, adapter in (("rows", with_rows), ("lora only", without)):
        with LlamaServer(
            tiny.gguf,
            log_path=tiny.dir / f"{adapter.stem}.log",
            lora_gguf=adapter,
            ctx_size=2048,
            precise=True,
        ) as server:
            served[name] = _next_logprobs(server.url, prompt, vocab)
    assert len(served["rows"]) == vocab
    assert max(abs(served["rows"][i] - hf[i]) for i in range(vocab)) < LOGPROB_TOL
    # Without the rows' tensors the tags' log-probabilities are another model's.
    assert min(abs(served["lora only"][i] - hf[i]) for i in tags) > 0.5


def _train_tool_caller(tiny: Tiny) -> PeftModel:
    """Teach a LoRA three replies: a tool call as the template writes it, the same call as
    bare JSON, and one with the tags on the call's line."""
    import copy

    import torch
    from peft import LoraConfig, get_peft_model

    samples = []
    for messages, reply in EXAMPLES:
        prompt = _ids(tiny.tokenizer, messages)
        full = tiny.tokenizer.apply_chat_template([*messages, reply], tools=TOOLS, tokenize=False)
        assert isinstance(full, str) and full.endswith("<|im_end|>\n")
        ids = tiny.tokenizer.encode(full.removesuffix("\n"))
        assert ids[: len(prompt)] == prompt
        samples.append((torch.tensor([ids]), len(prompt)))
    config = LoraConfig(r=8, lora_alpha=16, target_modules=SEVEN, lora_dropout=0.0)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(2)
        model = get_peft_model(copy.deepcopy(tiny.model), config)
        optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
        for step in range(200):
            for ids, start in samples:
                labels = ids.clone()
                labels[0, :start] = -100
                model(input_ids=ids, labels=labels).loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if step % 5 == 4 and _min_margin(model, samples) > 1.0:
                return model.eval()
    raise AssertionError("the tiny LoRA did not learn its replies in 200 steps")


def _min_margin(model: PeftModel, samples: list[tuple[Any, int]]) -> float:
    """The smallest lead of a target token's logit over the best other one (teacher forced):
    positive means greedy decoding writes the targets."""
    import torch

    margins = []
    with torch.no_grad():
        for ids, start in samples:
            logits = model(input_ids=ids).logits[0, start - 1 : -1]
            target = ids[0, start:]
            chosen = logits.gather(1, target[:, None])[:, 0]
            others = logits.scatter(1, target[:, None], float("-inf")).max(1).values
            margins.append(float((chosen - others).min()))
    return min(margins)


EXAMPLES = [
    ([{"role": "user", "content": "Open page a."}], _call("/a", arguments_as_text=False)),
    (
        [{"role": "user", "content": "Answer in plain JSON."}],
        {"role": "assistant", "content": '{"name": "navigate", "arguments": {"href": "/b"}}'},
    ),
    (
        [{"role": "user", "content": "One line."}],
        {
            "role": "assistant",
            "content": '<tool_call>{"name": "navigate", "arguments": {"href": "/c"}}</tool_call>',
        },
    ),
]


def test_trained_adapter_tool_calls_are_parsed_strictly(base_server: Any, tiny: Tiny) -> None:
    from bs4_lab.llama_server import LlamaServer

    adapter = _lora_gguf(_train_tool_caller(tiny), 16, tiny.dir / "tool-lora.gguf")

    def ask(server: Any, messages: list[dict[str, Any]], max_tokens: int = 40) -> dict[str, Any]:
        reply = _post(
            server.base_url + "/chat/completions",
            {
                "model": server.model,
                "messages": messages,
                "tools": TOOLS,
                "max_tokens": max_tokens,
                "temperature": 0,
            },
        )
        choice: dict[str, Any] = reply["choices"][0]
        return choice

    (tagged, _), (bare, _), (one_line, _) = EXAMPLES
    with LlamaServer(
        tiny.gguf, log_path=tiny.dir / "tool-lora.log", lora_gguf=adapter, ctx_size=2048
    ) as tuned:
        call = ask(tuned, tagged)
        plain = ask(tuned, bare)
        inline = ask(tuned, one_line)
        cut = ask(tuned, tagged, max_tokens=8)
    assert call["finish_reason"] == "tool_calls"
    (tool_call,) = call["message"]["tool_calls"]
    assert tool_call["function"]["name"] == "navigate"
    assert json.loads(tool_call["function"]["arguments"]) == {"href": "/a"}
    assert not call["message"].get("content")
    # Bare JSON is not a call: no lenient front turns it into one.
    assert plain["finish_reason"] == "stop"
    assert not plain["message"].get("tool_calls")
    assert plain["message"]["content"] == '{"name": "navigate", "arguments": {"href": "/b"}}'
    # Stricter than vLLM's hermes parser: without the newline after <tool_call> it is content.
    assert not inline["message"].get("tool_calls")
    assert inline["message"]["content"] == (
        '<tool_call>{"name": "navigate", "arguments": {"href": "/c"}}</tool_call>'
    )
    # Cut inside the call: "length", with a partial call the caller must not run.
    assert cut["finish_reason"] == "length"
    (partial,) = cut["message"]["tool_calls"]
    with pytest.raises(json.JSONDecodeError):
        json.loads(partial["function"]["arguments"])
    # The base model (same GGUF, no adapter) does none of this.
    assert not ask(base_server, tagged)["message"].get("tool_calls")


def test_write_lora_gguf_refuses_unknown_modules(tmp_path: Path) -> None:
    import numpy as np
    import torch

    from bs4_lab.gguf_export import write_lora_gguf

    good = {
        "base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight": torch.zeros(2, 8),
        "model.layers.0.self_attn.q_proj.lora_B.weight": torch.zeros(8, 2),
    }
    write_lora_gguf(good, 4, tmp_path / "ok.gguf")
    for key in (
        "base_model.model.model.layers.0.self_attn.qkv_proj.lora_A.weight",
        "base_model.model.lm_head.lora_A.weight",
        "base_model.model.model.embed_tokens.lora_embedding_A",
        "base_model.model.model.layers.0.mlp.q_proj.lora_A.weight",
        "base_model.model.model.layers.0.self_attn.q_proj.lora_magnitude_vector",
    ):
        with pytest.raises(ValueError, match="unsupported adapter tensor"):
            write_lora_gguf({**good, key: torch.zeros(2, 8)}, 4, tmp_path / "bad.gguf")
    with pytest.raises(ValueError, match="needs both lora_A and lora_B"):
        write_lora_gguf(dict(list(good.items())[:1]), 4, tmp_path / "half.gguf")
    for name in ("output.weight", "blk.0.attn_q.weight.lora_a", "token_embd.weight.lora_x"):
        with pytest.raises(ValueError, match="extra adapter tensor"):
            write_lora_gguf(good, 4, tmp_path / "x.gguf", extra={name: np.zeros((2, 8))})


def test_server_that_cannot_load_reports_its_log(tmp_path: Path) -> None:
    from bs4_lab.llama_server import LlamaServer, LlamaServerError

    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 64)
    server = LlamaServer(broken, log_path=tmp_path / "broken.log", startup_timeout_s=60)
    with pytest.raises(LlamaServerError, match="exited with status") as failure:
        server.start()
    assert "broken.gguf" in str(failure.value)
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.base_url


@pytest.mark.skipif(
    not REAL_GGUF.is_file(),
    reason="needs the local model: ../shared/tools/local-model-setup.sh 0.5b (never in CI)",
)
def test_real_gguf_tokenizer_matches_llama_cpp(tmp_path: Path) -> None:
    from bs4_lab.llama_server import LlamaServer
    from bs4_lab.qwen_tokenizer import tokenizer_from_gguf

    tokenizer = tokenizer_from_gguf(REAL_GGUF)
    text = tokenizer.apply_chat_template(
        _chat(arguments_as_text=False), tools=TOOLS, tokenize=False, add_generation_prompt=True
    )
    assert isinstance(text, str)
    with LlamaServer(REAL_GGUF, log_path=tmp_path / "real.log", ctx_size=4096) as server:
        rendered = _post(
            server.url + "/apply-template",
            {"messages": _chat(arguments_as_text=True), "tools": TOOLS},
        )["prompt"]
        tokens = _post(
            server.url + "/tokenize",
            {"content": text, "add_special": False, "parse_special": True},
        )["tokens"]
    assert rendered == text
    ids = tokenizer.encode(text)
    assert tokens == ids
    assert tokenizer.convert_tokens_to_ids("<tool_call>") in ids
