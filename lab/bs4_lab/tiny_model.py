"""A tiny, randomly initialised Qwen2 model and tokenizer, built in memory for CI.

``bs4-env learn`` trains Qwen2.5-Coder with peft and serves it with llama.cpp; CI runs that
same path (GGUF export, LoRA export, llama.cpp serving, tool-call parsing) on this model, with
no download. The tokenizer is Qwen2's kind (byte-level BPE behind Qwen2's pre-tokenizer split,
ChatML and tool-call added tokens), with a few hundred merges learned from a fixed corpus so
that ordinary text takes multi-byte tokens as it does with the real vocabulary.
"""

from __future__ import annotations

import json
from importlib import resources

import gguf
import torch
from tokenizers import Tokenizer, models, trainers
from tokenizers.pre_tokenizers import ByteLevel
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

from bs4_lab.qwen_tokenizer import build_qwen2_tokenizer, qwen2_pre_tokenizer

# Ids follow the learned vocabulary, in Qwen2's order: <|endoftext|> and the ChatML markers are
# CONTROL tokens, the tool-call tags USER_DEFINED (llama.cpp prints them in generated text).
SPECIAL_TOKENS: dict[str, gguf.TokenType] = {
    "<|endoftext|>": gguf.TokenType.CONTROL,
    "<|im_start|>": gguf.TokenType.CONTROL,
    "<|im_end|>": gguf.TokenType.CONTROL,
    "<tool_call>": gguf.TokenType.USER_DEFINED,
    "</tool_call>": gguf.TokenType.USER_DEFINED,
}
N_MERGES = 500

# What the model reads in an episode: HTML, BeautifulSoup code, JSON tool calls and answers,
# and the chat template's own text (so that a prompt with tools takes fewer tokens to train on).
CORPUS = r"""
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Product catalogue</title></head>
<body><div class="product" id="item-1"><h2 class="name">Blue kettle</h2>
<span class="price">$24.99</span><ul class="tags"><li>kitchen</li><li>sale</li></ul></div>
<table id="prices"><thead><tr><th>Name</th><th>Price</th></tr></thead>
<tbody><tr><td>Red lamp</td><td>12.50</td></tr><tr><td>Green mug</td><td>7.00</td></tr></tbody>
</table><a href="/page/2" rel="next">Next page</a><script src="app.js"></script></body></html>
from bs4 import BeautifulSoup
soup = make_soup("html.parser")
for row in soup.select("table#prices tbody tr"):
    cells = [td.get_text(strip=True) for td in row.find_all("td")]
    print(cells)
title = soup.find("h2", class_="name").get_text(strip=True)
price = float(soup.select_one("span.price").text.strip().lstrip("$"))
links = [a["href"] for a in soup.find_all("a", href=True)]
print(json.dumps({"title": title, "price": price, "links": links}))
import json
data = json.loads(HTML)
print(len(HTML), QUERY)
{"name": "run_python", "arguments": {"code": "print(soup.title.string)"}}
{"name": "navigate", "arguments": {"href": "/page/2"}}
{"status": "ok", "answer": {"title": "Blue kettle", "price": 24.99}}
{"status": "limit", "limit": {"reason": "js_rendered", "evidence": "<div id=\"app\">"}}
Traceback (most recent call last):
  File "<sandbox>", line 3, in <module>
AttributeError: 'NoneType' object has no attribute 'get_text'
The answer is the price of the first product in the table.
<|im_start|>system
# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{"type": "function", "function": {"name": "navigate", "description": "Go to a page",
"parameters": {"type": "object", "properties": {"href": {"type": "string"}}, "required": ["href"]}}}
</tools>

For each function call, return a json object with function name and arguments within
<tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call><|im_end|>
<|im_start|>user
<tool_response>
</tool_response><|im_end|>
<|im_start|>assistant
"""


def chat_template() -> str:
    """The tiny model's chat template (ChatML with Hermes-style tool calls, as Qwen2.5)."""
    return resources.files("bs4_lab").joinpath("chat_template.jinja").read_text("utf-8")


def tiny_tokenizer() -> PreTrainedTokenizerFast:
    """Byte-level BPE: the 256 byte symbols, :data:`N_MERGES` merges learned from
    :data:`CORPUS`, then the special tokens (deterministic: the corpus is fixed)."""
    learner = Tokenizer(models.BPE())
    learner.pre_tokenizer = qwen2_pre_tokenizer()
    alphabet = ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(
        vocab_size=len(alphabet) + N_MERGES,
        min_frequency=1,
        initial_alphabet=alphabet,
        show_progress=False,
    )
    learner.train_from_iterator(CORPUS.splitlines(keepends=True), trainer)
    learned = learner.get_vocab()
    tokens = sorted(learned, key=learned.__getitem__)
    if len(tokens) != len(alphabet) + N_MERGES or set(tokens[: len(alphabet)]) != set(alphabet):
        raise RuntimeError(
            f"BPE training gave {len(tokens)} tokens, not the {len(alphabet)} byte symbols and"
            f" {N_MERGES} merges (a smaller CORPUS has fewer pairs to merge)"
        )
    # The serialised learner lists its merges in rank order ([left, right] pairs).
    merges = [" ".join(pair) for pair in json.loads(learner.to_str())["model"]["merges"]]
    if len(merges) != N_MERGES:
        raise RuntimeError(f"BPE training gave {len(merges)} merges, expected {N_MERGES}")
    return build_qwen2_tokenizer(
        [*tokens, *SPECIAL_TOKENS], merges, SPECIAL_TOKENS, chat_template()
    )


def tiny_config(vocab_size: int, eos_token_id: int, pad_token_id: int) -> Qwen2Config:
    """Qwen2's architecture (q/k/v biases, RMSNorm, SwiGLU, RoPE, grouped KV heads), tiny."""
    return Qwen2Config(
        vocab_size=vocab_size,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        rms_norm_eps=1e-6,
        rope_parameters={"rope_type": "default", "rope_theta": 1_000_000.0},
        # Untied, as the Qwen2.5-Coder GGUFs (their own output.weight): the trained tool-call
        # rows (bs4_lab.token_rows) need separate input and output matrices.
        tie_word_embeddings=False,
        # Wider than Qwen2's 0.02, so that the random model's next-token logits are spread out
        # and HF and llama.cpp agree on an argmax by a clear margin.
        initializer_range=0.1,
        bos_token_id=None,
        eos_token_id=eos_token_id,
        pad_token_id=pad_token_id,
    )


def tiny_qwen2(seed: int) -> tuple[Qwen2ForCausalLM, PreTrainedTokenizerFast]:
    """A randomly initialised f32 Qwen2ForCausalLM (seeded) and its tokenizer, in eval mode."""
    tokenizer = tiny_tokenizer()
    eos, pad = tokenizer.eos_token_id, tokenizer.pad_token_id
    assert isinstance(eos, int) and isinstance(pad, int)
    config = tiny_config(len(tokenizer), eos, pad)
    # A private generator state: seeding must not change the caller's random stream.
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen2ForCausalLM(config)
    # Built in torch's default dtype; it is compared with llama.cpp as f32.
    if model.dtype != torch.float32:
        raise RuntimeError(f"tiny model built as {model.dtype}: torch's default dtype is not f32")
    model.train(False)  # eval mode (nn.Module.train is typed, transformers' eval is not)
    return model, tokenizer
