"""Qwen2 byte-level BPE tokenizers for Hugging Face, built to give llama.cpp's token ids.

Training tokenizes with Hugging Face and serving tokenizes with llama.cpp, so both must cut a
chat into the same ids. :func:`tokenizer_from_gguf` rebuilds the tokenizer of a Qwen2 GGUF (the
Q4_K_M file the learning run starts from) from the vocabulary, merges, token types and chat
template stored in it; :func:`build_qwen2_tokenizer` is the common constructor, also used for
the tiny CI model (:mod:`bs4_lab.tiny_model`), which llama.cpp tokenizes with its
``qwen2`` pre-tokenizer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import gguf
import tokenizers
from tokenizers import decoders, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

# llama.cpp's "qwen2" pre-tokenizer regex (the one in Qwen2's tokenizer.json): words, single
# digits, punctuation runs, newlines and spaces are split before byte-level BPE.
QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
EOS_TOKEN = "<|im_end|>"
PAD_TOKEN = "<|endoftext|>"
# GGUF token types that are added tokens (matched whole before BPE runs).
ADDED_TOKEN_TYPES = (gguf.TokenType.CONTROL, gguf.TokenType.USER_DEFINED)


def qwen2_pre_tokenizer() -> pre_tokenizers.PreTokenizer:
    """Qwen2's split, then byte-level mapping with no regex of its own (the split did it)."""
    return pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(tokenizers.Regex(QWEN2_SPLIT), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )


def build_qwen2_tokenizer(
    tokens: Sequence[str],
    merges: Sequence[str],
    special_tokens: Mapping[str, gguf.TokenType],
    chat_template: str,
) -> PreTrainedTokenizerFast:
    """A Qwen2-style tokenizer: ``tokens`` in id order (byte-level symbols), ``merges`` as
    ``"left right"`` strings in rank order, and the added tokens with their GGUF type.

    CONTROL tokens (``<|im_start|>``, ``<|im_end|>``, ...) become special added tokens and
    USER_DEFINED ones (``<tool_call>``, ``</tool_call>``) non-special added tokens, as in Qwen's
    own tokenizer: both are matched whole, so ``<tool_call>`` is one id, as llama.cpp makes it
    (otherwise BPE would split it into pieces llama.cpp never produces), and decoding with
    ``skip_special_tokens=True`` keeps ``<tool_call>`` the way llama.cpp's output text does.
    """
    vocab = {token: i for i, token in enumerate(tokens)}
    if len(vocab) != len(tokens):
        raise ValueError("duplicate tokens in the vocabulary")
    for token, kind in special_tokens.items():
        if token not in vocab:
            raise ValueError(f"added token {token!r} is not in the vocabulary")
        if kind not in ADDED_TOKEN_TYPES:
            raise ValueError(
                f"added token {token!r} has type {kind!r}; expected CONTROL or USER_DEFINED"
            )
    for token in (EOS_TOKEN, PAD_TOKEN):
        if special_tokens.get(token) != gguf.TokenType.CONTROL:
            raise ValueError(f"{token!r} must be a CONTROL added token of a Qwen2 tokenizer")
    pairs: list[tuple[str, str]] = []
    for merge in merges:
        left, sep, right = merge.partition(" ")
        if not sep or not left or not right:
            raise ValueError(f"malformed merge {merge!r}: expected 'left right'")
        pairs.append((left, right))
    backend = tokenizers.Tokenizer(models.BPE(vocab, pairs))
    backend.pre_tokenizer = qwen2_pre_tokenizer()
    backend.decoder = decoders.ByteLevel()
    # Added in id order, so that the tokenizer lists them as the GGUF does.
    backend.add_tokens(
        [
            tokenizers.AddedToken(token, special=kind == gguf.TokenType.CONTROL, normalized=False)
            for token, kind in sorted(special_tokens.items(), key=lambda item: vocab[item[0]])
        ]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        eos_token=EOS_TOKEN,
        pad_token=PAD_TOKEN,
        chat_template=chat_template,
    )


def _field(reader: gguf.GGUFReader, key: str) -> gguf.ReaderField:
    field = reader.fields.get(key)
    if field is None:
        raise ValueError(f"{reader.data.filename}: GGUF has no {key}")
    return field


def _strings(reader: gguf.GGUFReader, key: str) -> list[str]:
    field = _field(reader, key)
    return [bytes(field.parts[i]).decode("utf-8") for i in field.data]


def tokenizer_from_gguf(path: Path | str) -> PreTrainedTokenizerFast:
    """The Hugging Face tokenizer of a Qwen2 GGUF (``tokenizer.ggml.model`` gpt2, pre qwen2),
    with the GGUF's own chat template."""
    reader = gguf.GGUFReader(str(path))
    (model,) = _strings(reader, "tokenizer.ggml.model")
    (pre,) = _strings(reader, "tokenizer.ggml.pre")
    if (model, pre) != ("gpt2", "qwen2"):
        raise ValueError(
            f"{path}: tokenizer {model}/{pre}; only Qwen2's byte-level BPE (gpt2/qwen2) is read"
        )
    tokens = _strings(reader, "tokenizer.ggml.tokens")
    merges = _strings(reader, "tokenizer.ggml.merges")
    (template,) = _strings(reader, "tokenizer.chat_template")
    field = _field(reader, "tokenizer.ggml.token_type")
    types = [gguf.TokenType(int(field.parts[i][0])) for i in field.data]
    if len(types) != len(tokens):
        raise ValueError(f"{path}: {len(tokens)} tokens but {len(types)} token types")
    special = {
        token: kind for token, kind in zip(tokens, types, strict=True) if kind in ADDED_TOKEN_TYPES
    }
    return build_qwen2_tokenizer(tokens, merges, special, template)
