"""Trainable embedding and output rows for the tool-call tags, and their llama.cpp adapter form.

Qwen2.5-Coder-0.5B-Instruct never learned its ``<tool_call>`` / ``</tool_call>`` tokens: in its
GGUF their input and output rows are the same untrained vector as ten other unused special
tokens (cosine 1.000, norm 0.32 against a median 0.51), so their logits tie with those tokens
whatever the layers compute, and a LoRA on the decoder's projections alone cannot make the model
write the tag: measured, the SFT adapter wrote ``<|im_start|>`` where ``<tool_call>`` belongs
on 24 of 24 eval rows. These rows are therefore trained too, as deltas on the frozen matrices
(``TokenRows``), next to the LoRA.

peft's ``trainable_token_indices`` would do the same, but it rebuilds the whole merged
150k-row matrix on every forward pass and takes the gradient of all of it; here the input
delta is added to the looked-up embeddings and the output delta to the logits of those few
columns, so the cost is a handful of rows.

llama.cpp serves the deltas as part of the LoRA adapter, exactly (:meth:`TokenRows.lora_tensors`):
a rank-k LoRA whose one-hot side selects the k rows. ``output.weight`` takes the usual layout;
``token_embd.weight`` the one llama.cpp reads for embeddings (A holds one row per token, B maps
to the hidden size). Models whose output matrix is the embedding (tied) are refused: llama.cpp
would apply the embedding's adapter to the output projection as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

TOOL_CALL_TAGS = ("<tool_call>", "</tool_call>")


def tag_ids(tokenizer: Any, tags: Sequence[str] = TOOL_CALL_TAGS) -> list[int]:
    """The ids of ``tags`` as single tokens of ``tokenizer`` (raises if one is not a token)."""
    ids = []
    for tag in tags:
        encoded = tokenizer.encode(tag, add_special_tokens=False)
        if len(encoded) != 1:
            raise ValueError(f"{tag!r} is not one token of this tokenizer: {encoded}")
        ids.append(int(encoded[0]))
    return ids


class TokenRows(nn.Module):
    """Deltas on the input and output rows of ``token_ids``, applied by forward hooks."""

    slot: torch.Tensor  # token id -> row of the deltas (k: no row)
    ids: torch.Tensor

    def __init__(self, model: Any, token_ids: Sequence[int]) -> None:
        super().__init__()
        embed = model.get_input_embeddings()
        head = model.get_output_embeddings()
        if embed is None or head is None:
            raise ValueError("the model has no input or output embedding to train rows of")
        if head.weight is embed.weight:
            raise ValueError(
                "the model ties its output matrix to its embedding; llama.cpp would apply an"
                " embedding adapter to the output too, so token rows are not supported"
            )
        vocab, hidden = embed.weight.shape
        ids = [int(i) for i in token_ids]
        if not ids or len(set(ids)) != len(ids) or not all(0 <= i < vocab for i in ids):
            raise ValueError(f"token ids must be distinct and below {vocab}: {ids}")
        self.token_ids = ids
        self.input_delta = nn.Parameter(torch.zeros(len(ids), hidden))
        self.output_delta = nn.Parameter(torch.zeros(len(ids), hidden))
        slot = torch.full((vocab,), len(ids), dtype=torch.long)
        slot[torch.tensor(ids)] = torch.arange(len(ids))
        self.register_buffer("slot", slot, persistent=False)
        self.register_buffer("ids", torch.tensor(ids), persistent=False)
        embed.register_forward_hook(self._embed_hook)
        head.register_forward_hook(self._head_hook)

    def _embed_hook(self, _module: nn.Module, args: tuple[Any, ...], out: torch.Tensor) -> Any:
        # Row k of the padded delta is zero: every other token looks up nothing.
        padded = torch.cat([self.input_delta, self.input_delta.new_zeros(1, out.shape[-1])])
        return out + padded[self.slot[args[0]]].to(out.dtype)

    def _head_hook(self, _module: nn.Module, args: tuple[Any, ...], out: torch.Tensor) -> Any:
        extra = args[0] @ self.output_delta.to(args[0].dtype).T
        return out.index_add(-1, self.ids, extra.to(out.dtype))

    def state(self) -> dict[str, torch.Tensor]:
        return {
            "token_ids": torch.tensor(self.token_ids),
            "input_delta": self.input_delta.detach().clone(),
            "output_delta": self.output_delta.detach().clone(),
        }

    def load(self, state: dict[str, torch.Tensor]) -> None:
        saved = [int(i) for i in state["token_ids"].tolist()]
        if saved != self.token_ids:
            raise ValueError(f"saved token rows are for ids {saved}, not {self.token_ids}")
        with torch.no_grad():
            self.input_delta.copy_(state["input_delta"])
            self.output_delta.copy_(state["output_delta"])

    def lora_tensors(self, lora_alpha: float) -> dict[str, np.ndarray[Any, Any]]:
        """llama.cpp adapter tensors that add these deltas, scaled back by ``alpha / k``
        (llama.cpp scales every LoRA product by alpha over that tensor's own rank k)."""
        vocab = len(self.slot)
        k = len(self.token_ids)
        scale = float(lora_alpha) / k
        select = np.zeros((vocab, k), dtype=np.float32)
        select[self.token_ids, np.arange(k)] = 1.0
        rows_in = self.input_delta.detach().float().numpy() / scale
        rows_out = self.output_delta.detach().float().numpy() / scale
        return {
            # Embedding: get_rows(A, token) then B @ that: A [vocab, k], B [hidden, k].
            "token_embd.weight.lora_a": select,
            "token_embd.weight.lora_b": np.ascontiguousarray(rows_in.T),
            # Output projection: B @ (A @ h), A [k, hidden], B [vocab, k].
            "output.weight.lora_a": np.ascontiguousarray(rows_out),
            "output.weight.lora_b": select,
        }
