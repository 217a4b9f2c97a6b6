"""Write Qwen2 models and PEFT LoRA adapters as GGUF files that llama.cpp loads.

``bs4-env learn`` serves the base model and the trained adapter with llama.cpp. The real base is
a published Q4_K_M GGUF; :func:`write_base_gguf` exists for the tiny CI model
(:mod:`bs4_lab.tiny_model`), so that CI serves exactly what it trained.
:func:`write_lora_gguf` turns the adapter peft trained into llama.cpp's adapter layout:
``general.type=adapter``, ``adapter.type=lora``, ``adapter.lora.alpha``, and per layer
``blk.N.<attn_q|attn_k|attn_v|attn_output|ffn_gate|ffn_up|ffn_down>.weight.lora_a`` ``[r, in]``
and ``.lora_b`` ``[out, r]``, as peft stores them. llama.cpp scales each product by
``alpha / r`` (r read from the tensors), which is peft's scaling without rsLoRA.

Qwen2's q/k projections are written as they are: its RoPE is the NEOX kind, which llama.cpp
applies to the unpermuted weights (only the LLaMA converter permutes them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import gguf
import numpy as np
import torch
from transformers import PreTrainedTokenizerFast, Qwen2ForCausalLM

from bs4_lab.qwen_tokenizer import QWEN2_SPLIT

ARCH = gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.QWEN2]
TensorType = Literal["f32", "f16"]

# Hugging Face module (under model.layers.N) -> llama.cpp tensor (under blk.N).
LAYER_WEIGHTS = {
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output",
    "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
}
LAYER_BIASES = {
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
}
LAYER_NORMS = {"input_layernorm": "attn_norm", "post_attention_layernorm": "ffn_norm"}
_LAYER_KEY = re.compile(r"model\.layers\.(\d+)\.(.+)\.(weight|bias)")
_LORA_KEY = re.compile(r"(?:base_model\.model\.)?model\.layers\.(\d+)\.(.+)\.lora_([AB])\.weight")


def _array(tensor: torch.Tensor, dtype: TensorType) -> np.ndarray[Any, Any]:
    """A contiguous numpy copy; PyTorch's [out, in] order is what GGUFWriter expects (it
    writes the dimensions reversed, as ggml's ne)."""
    array = tensor.detach().to(device="cpu", dtype=torch.float32).contiguous().numpy()
    return array.astype(np.float16 if dtype == "f16" else np.float32)


def _rope_theta(config: Any) -> float:
    rope = getattr(config, "rope_parameters", None)
    if not isinstance(rope, dict) or "rope_theta" not in rope:
        raise ValueError(f"config has no rope_parameters with rope_theta: {rope!r}")
    if rope.get("rope_type", "default") != "default":
        raise ValueError(f"only plain RoPE is exported; config has {rope!r}")
    return float(rope["rope_theta"])


def _check_config(config: Any) -> None:
    if config.model_type != "qwen2":
        raise ValueError(f"expected a qwen2 model, got model_type {config.model_type!r}")
    if config.hidden_act != "silu":
        raise ValueError(
            f"llama.cpp's qwen2 uses SwiGLU; config has hidden_act {config.hidden_act!r}"
        )
    if getattr(config, "use_sliding_window", False):
        raise ValueError("sliding-window attention is not exported (llama.cpp's qwen2 has none)")
    head_dim = getattr(config, "head_dim", None)
    if head_dim is not None and head_dim * config.num_attention_heads != config.hidden_size:
        raise ValueError(
            f"head_dim {head_dim} x {config.num_attention_heads} heads"
            f" != hidden size {config.hidden_size}"
        )


def _tokenizer_vocab(
    tokenizer: PreTrainedTokenizerFast, vocab_size: int
) -> tuple[list[str], list[gguf.TokenType], list[str]]:
    """Tokens in id order, their GGUF types and the merges, checked to be Qwen2's kind of
    tokenizer (anything else would tokenize differently under llama.cpp's qwen2 pre-tokenizer)."""
    state = json.loads(tokenizer.backend_tokenizer.to_str())
    model = state["model"]
    if model.get("type") != "BPE":
        raise ValueError(f"expected a BPE tokenizer, got {model.get('type')!r}")
    pre = state.get("pre_tokenizer") or {}
    steps = pre.get("pretokenizers") if pre.get("type") == "Sequence" else None
    if (
        not steps
        or len(steps) != 2
        or steps[0].get("type") != "Split"
        or steps[0].get("pattern") != {"Regex": QWEN2_SPLIT}
        or steps[1].get("type") != "ByteLevel"
        or steps[1].get("use_regex") is not False
        or steps[1].get("add_prefix_space") is not False
    ):
        raise ValueError(f"pre-tokenizer is not Qwen2's split + byte level: {pre!r}")
    # Qwen2's own tokenizer.json NFC-normalises; llama.cpp does not, which only matters for
    # text that is not already NFC.
    normalizer = state.get("normalizer")
    if normalizer is not None and normalizer.get("type") != "NFC":
        raise ValueError(f"unsupported normalizer {normalizer!r}")
    by_id: dict[int, str] = {i: t for t, i in model["vocab"].items()}
    types: dict[int, gguf.TokenType] = {}
    for added in state.get("added_tokens", []):
        index, content = int(added["id"]), added["content"]
        if by_id.setdefault(index, content) != content:
            raise ValueError(f"added token {content!r} reuses id {index} of {by_id[index]!r}")
        types[index] = gguf.TokenType.CONTROL if added["special"] else gguf.TokenType.USER_DEFINED
    count = len(by_id)
    if sorted(by_id) != list(range(count)):
        raise ValueError("token ids are not contiguous from 0")
    if count > vocab_size:
        raise ValueError(f"tokenizer has {count} tokens, the model's embedding only {vocab_size}")
    tokens = [by_id[i] for i in range(count)]
    token_types = [types.get(i, gguf.TokenType.NORMAL) for i in range(count)]
    # The embedding is often padded past the tokenizer (Qwen2.5: 151936 rows, 151665 tokens);
    # llama.cpp needs one token per row, so the rest are placeholders it never produces.
    for i in range(count, vocab_size):
        tokens.append(f"[PAD{i}]")
        token_types.append(gguf.TokenType.UNUSED)
    merges: list[str] = []
    for merge in model["merges"]:
        pair = merge.split(" ") if isinstance(merge, str) else merge
        if len(pair) != 2 or not all(pair):
            raise ValueError(f"malformed merge {merge!r}")
        merges.append(f"{pair[0]} {pair[1]}")
    return tokens, token_types, merges


def _token_id(tokenizer: PreTrainedTokenizerFast, token: str | None, role: str) -> int:
    if token is None:
        raise ValueError(f"tokenizer has no {role} token")
    index = tokenizer.convert_tokens_to_ids(token)
    if not isinstance(index, int):
        raise ValueError(f"{role} token {token!r} has no id")
    return index


def write_base_gguf(
    model: Qwen2ForCausalLM,
    tokenizer: PreTrainedTokenizerFast,
    path: Path | str,
    *,
    dtype: TensorType = "f32",
    name: str = "bs4-env qwen2",
) -> None:
    """Write a Qwen2ForCausalLM and its tokenizer as a llama.cpp GGUF (arch qwen2).

    Matrices are stored as ``dtype``; norms and biases always as f32 (llama.cpp requires it).
    The tokenizer must be Qwen2's kind (:mod:`bs4_lab.qwen_tokenizer`) with a chat
    template, an eos and a pad token.
    """
    config = model.config
    _check_config(config)
    template = tokenizer.chat_template
    if not isinstance(template, str):
        raise ValueError("tokenizer has no chat template (llama.cpp serves chats with it)")
    tokens, token_types, merges = _tokenizer_vocab(tokenizer, config.vocab_size)
    eos = _token_id(tokenizer, tokenizer.eos_token, "eos")
    pad = _token_id(tokenizer, tokenizer.pad_token, "pad")
    # Qwen2 has no bos token; its GGUFs name <|endoftext|> (the pad token) and never add it.
    bos = _token_id(tokenizer, tokenizer.bos_token or tokenizer.pad_token, "bos")

    writer = gguf.GGUFWriter(str(path), ARCH)
    writer.add_type(gguf.GGUFType.MODEL)
    writer.add_name(name)
    writer.add_file_type(
        gguf.LlamaFileType.MOSTLY_F16 if dtype == "f16" else gguf.LlamaFileType.ALL_F32
    )
    writer.add_context_length(config.max_position_embeddings)
    writer.add_embedding_length(config.hidden_size)
    writer.add_block_count(config.num_hidden_layers)
    writer.add_feed_forward_length(config.intermediate_size)
    writer.add_head_count(config.num_attention_heads)
    kv_heads = config.num_key_value_heads
    if kv_heads is None:
        raise ValueError("config has no num_key_value_heads")
    writer.add_head_count_kv(kv_heads)
    writer.add_rope_freq_base(_rope_theta(config))
    writer.add_layer_norm_rms_eps(config.rms_norm_eps)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("qwen2")
    writer.add_token_list(tokens)
    writer.add_token_types(token_types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(bos)
    writer.add_eos_token_id(eos)
    writer.add_pad_token_id(pad)
    writer.add_add_bos_token(False)
    writer.add_chat_template(template)

    state = model.state_dict()
    written: set[str] = set()

    def put(key: str, gguf_name: str, tensor_type: TensorType) -> None:
        writer.add_tensor(gguf_name, _array(state[key], tensor_type))
        written.add(key)

    put("model.embed_tokens.weight", "token_embd.weight", dtype)
    put("model.norm.weight", "output_norm.weight", "f32")
    if config.tie_word_embeddings:
        # llama.cpp's qwen2 reads token_embd for the output when output.weight is absent.
        written.add("lm_head.weight")
    else:
        put("lm_head.weight", "output.weight", dtype)
    for layer in range(config.num_hidden_layers):
        prefix = f"model.layers.{layer}."
        for module, target in LAYER_WEIGHTS.items():
            put(f"{prefix}{module}.weight", f"blk.{layer}.{target}.weight", dtype)
        for module, target in LAYER_BIASES.items():
            put(f"{prefix}{module}.bias", f"blk.{layer}.{target}.bias", "f32")
        for module, target in LAYER_NORMS.items():
            put(f"{prefix}{module}.weight", f"blk.{layer}.{target}.weight", "f32")
    left = sorted(set(state) - written)
    if left:
        raise ValueError(f"tensors with no llama.cpp qwen2 counterpart: {left}")

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def write_lora_gguf(
    adapter_state: Mapping[str, torch.Tensor],
    lora_alpha: float,
    path: Path | str,
    *,
    dtype: TensorType = "f32",
    extra: Mapping[str, np.ndarray[Any, Any]] | None = None,
) -> None:
    """Write a peft LoRA state dict of a Qwen2 model as a llama.cpp adapter GGUF.

    Keys are peft's (``base_model.model.model.layers.3.self_attn.q_proj.lora_A.weight``), with
    or without the ``base_model.model.`` prefix. Only the seven linear projections of the
    decoder layers are supported, with ``lora_alpha / r`` scaling (not rsLoRA, not DoRA, no
    per-module alpha): anything else raises, because llama.cpp would silently apply a
    different adapter. ``extra`` adds tensors already in llama.cpp's names and layout (the
    trained token rows of :mod:`bs4_lab.token_rows`), written as given.
    """
    if not lora_alpha > 0:
        raise ValueError(f"lora_alpha must be positive, got {lora_alpha}")
    pairs: dict[tuple[int, str], dict[str, torch.Tensor]] = {}
    for key, tensor in adapter_state.items():
        match = _LORA_KEY.fullmatch(key)
        if match is None or match.group(2) not in LAYER_WEIGHTS:
            raise ValueError(
                f"unsupported adapter tensor {key!r}: only lora_A/lora_B of"
                f" model.layers.N.<{'|'.join(LAYER_WEIGHTS)}> can be served by llama.cpp"
            )
        layer, module, side = int(match.group(1)), match.group(2), match.group(3)
        if tensor.dim() != 2:
            raise ValueError(f"{key}: expected a matrix, got shape {tuple(tensor.shape)}")
        slot = pairs.setdefault((layer, module), {})
        if side in slot:
            raise ValueError(f"{key}: lora_{side} of layer {layer} {module} given twice")
        slot[side] = tensor
    if not pairs:
        raise ValueError("adapter state has no LoRA tensors")

    writer = gguf.GGUFWriter(str(path), ARCH)
    writer.add_type(gguf.GGUFType.ADAPTER)
    writer.add_string(gguf.Keys.Adapter.TYPE, "lora")
    writer.add_float32(gguf.Keys.Adapter.LORA_ALPHA, float(lora_alpha))
    for (layer, module), slot in sorted(pairs.items()):
        if set(slot) != {"A", "B"}:
            raise ValueError(
                f"layer {layer} {module}: needs both lora_A and lora_B, has {sorted(slot)}"
            )
        a, b = slot["A"], slot["B"]
        if a.shape[0] != b.shape[1]:
            raise ValueError(
                f"layer {layer} {module}: lora_A {tuple(a.shape)} and lora_B {tuple(b.shape)}"
                " disagree on the rank"
            )
        target = f"blk.{layer}.{LAYER_WEIGHTS[module]}.weight"
        writer.add_tensor(f"{target}.lora_a", _array(a, dtype))
        writer.add_tensor(f"{target}.lora_b", _array(b, dtype))
    for name, array in sorted((extra or {}).items()):
        if not name.endswith((".weight.lora_a", ".weight.lora_b")) or name.startswith("blk."):
            raise ValueError(f"extra adapter tensor {name!r} is not a non-layer lora_a/lora_b")
        writer.add_tensor(name, np.ascontiguousarray(array, dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
