"""LoRA updates of a causal LM on rendered episodes, one weighted loss for SFT and for RL.

Each optimizer step takes a batch of (sequence, weight). The loss is the weighted negative
log-likelihood of the trained tokens, summed and divided by the batch's trained-token count
(token-level normalisation, as prime-rl's default loss does): weight 1 is supervised
fine-tuning, a group-relative advantage is a policy-gradient (REINFORCE) step on samples drawn
from the current adapter.

CPU cost is dominated by the system prompt and tool schemas every episode starts with (about
950 of 1,500 tokens). They run once per step without gradient, and each episode's suffix
attends to that cached prefix. The forward pass is exact; the gradient leaves out the paths
through the prefix's keys and values (the LoRA on k/v and lower layers at prefix positions),
which the trained tokens reach only through attention.

Next to the LoRA, the trainer can train the input and output rows of a few tokens
(:mod:`bs4_lab.token_rows`: the tool-call tags, untrained in Qwen2.5-Coder-0.5B); they
are saved with the checkpoint and exported into the same llama.cpp adapter.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
from peft import LoraConfig, PeftModel, get_peft_model
from transformers import DynamicCache, PreTrainedModel

from bs4_lab.gguf_export import write_lora_gguf
from bs4_lab.render import Sequence_
from bs4_lab.token_rows import TokenRows

LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
STATE_FILE = "trainer_state.pt"
CONFIG_FILE = "trainer_config.json"
ROWS_FILE = "token_rows.safetensors"


@dataclass(frozen=True)
class TrainConfig:
    """LoRA shape and optimizer settings (written next to every checkpoint)."""

    lora_rank: int = 16
    lora_alpha: int = 32
    learning_rate: float = 2e-4
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    seed: int = 0


@dataclass(frozen=True)
class StepStats:
    loss: float
    trained_tokens: int
    suffix_tokens: int
    seconds: float
    grad_norm: float
    # Mean NLL of the target tokens whose rows are trained (None: none in the batch).
    row_token_nll: float | None = None

    @property
    def tokens_per_second(self) -> float:
        return self.suffix_tokens / self.seconds if self.seconds else 0.0


class LoraTrainer:
    """A base model with a LoRA on every projection (and, if ``token_ids`` is given, trained
    input and output rows of those tokens), its optimizer and its step count."""

    def __init__(
        self, model: PreTrainedModel, config: TrainConfig, token_ids: Sequence[int] = ()
    ) -> None:
        torch.manual_seed(config.seed)
        # Hooks go on the embedding and head modules, which peft leaves in place.
        self.rows = TokenRows(model, token_ids) if token_ids else None
        lora = LoraConfig(
            r=config.lora_rank,
            lora_alpha=config.lora_alpha,
            lora_dropout=0.0,
            target_modules=list(LORA_TARGETS),
            bias="none",
            task_type="CAUSAL_LM",
        )
        self.config = config
        self.model: PeftModel = get_peft_model(model, lora)
        self.model.train()
        self.optimizer = torch.optim.AdamW(
            self._trained_parameters(),
            lr=config.learning_rate,
            weight_decay=config.weight_decay,
        )
        self.steps = 0

    def _trained_parameters(self) -> list[torch.nn.Parameter]:
        params = [p for p in self.model.parameters() if p.requires_grad]
        return params + (list(self.rows.parameters()) if self.rows is not None else [])

    @property
    def _decoder(self) -> Any:
        wrapped: Any = self.model.base_model.model
        return wrapped.model

    @property
    def _head(self) -> Any:
        wrapped: Any = self.model.base_model.model
        return wrapped.lm_head

    def _prefix_cache(self, ids: list[int]) -> list[tuple[torch.Tensor, torch.Tensor]]:
        if not ids:
            return []
        with torch.no_grad():
            out = self._decoder(input_ids=torch.tensor([ids]), use_cache=True)
        cache = out.past_key_values
        return [(layer.keys.detach(), layer.values.detach()) for layer in cache.layers]

    def _episode_loss(
        self,
        sequence: Sequence_,
        prefix: list[tuple[torch.Tensor, torch.Tensor]],
        prefix_len: int,
    ) -> tuple[torch.Tensor, int, float, int]:
        """Summed NLL of the trained tokens of one sequence and their count, then the same
        (no gradient) for the targets whose token rows are trained."""
        suffix = sequence.ids[prefix_len:]
        cache = None
        if prefix:
            cache = DynamicCache()
            for layer, (keys, values) in enumerate(prefix):
                cache.update(keys, values, layer)
        positions = torch.arange(prefix_len, len(sequence.ids)).unsqueeze(0)
        hidden = self._decoder(
            input_ids=torch.tensor([suffix]),
            past_key_values=cache,
            position_ids=positions,
            use_cache=prefix_len > 0,
        ).last_hidden_state[0]
        # Token i is predicted from the hidden state at i - 1; only trained tokens get logits
        # (a full 150k-vocabulary projection of every position would dominate memory).
        targets = [i for i in range(prefix_len + 1, len(sequence.ids)) if sequence.mask[i]]
        if not targets:
            return hidden.sum() * 0.0, 0, 0.0, 0
        rows = torch.tensor([i - 1 - prefix_len for i in targets])
        logits = self._head(hidden[rows]).float()
        labels = torch.tensor([sequence.ids[i] for i in targets])
        each = torch.nn.functional.cross_entropy(logits, labels, reduction="none")
        row_nll, row_count = 0.0, 0
        if self.rows is not None:
            on_rows = torch.isin(labels, self.rows.ids)
            row_nll, row_count = float(each.detach()[on_rows].sum()), int(on_rows.sum())
        return each.sum(), len(targets), row_nll, row_count

    def step(self, batch: Sequence[tuple[Sequence_, float]], prefix_len: int) -> StepStats:
        """One optimizer step on the batch; every sequence must share the first
        ``prefix_len`` tokens (``render.shared_prefix_length``)."""
        if not batch:
            raise ValueError("empty batch")
        head = batch[0][0].ids[:prefix_len]
        for sequence, weight in batch:
            if sequence.ids[:prefix_len] != head:
                raise ValueError("a sequence in the batch does not start with the shared prefix")
            if not math.isfinite(weight):
                raise ValueError(f"non-finite weight {weight}")
        started = time.monotonic()
        total = sum(s.trained for s, _ in batch)
        if total == 0:
            raise ValueError("no trained tokens in the batch")
        self.optimizer.zero_grad(set_to_none=True)
        prefix = self._prefix_cache(head)
        loss_sum, suffix_tokens, row_nll, row_count = 0.0, 0, 0.0, 0
        for sequence, weight in batch:
            suffix_tokens += len(sequence.ids) - prefix_len
            if weight == 0.0:
                continue  # no gradient; skipping saves the forward pass
            nll, _count, on_rows, on_rows_count = self._episode_loss(sequence, prefix, prefix_len)
            loss = nll * weight / total
            loss.backward()  # type: ignore[no-untyped-call]
            loss_sum += float(loss.detach())
            row_nll, row_count = row_nll + on_rows, row_count + on_rows_count
        norm = torch.nn.utils.clip_grad_norm_(self._trained_parameters(), self.config.max_grad_norm)
        self.optimizer.step()
        self.steps += 1
        return StepStats(
            loss_sum,
            total,
            suffix_tokens,
            time.monotonic() - started,
            float(norm),
            round(row_nll / row_count, 4) if row_count else None,
        )

    def sequence_nll(self, sequence: Sequence_, prefix_len: int = 0) -> float:
        """Mean NLL per trained token of one sequence under the current weights (no gradient)."""
        with torch.no_grad():
            prefix = self._prefix_cache(sequence.ids[:prefix_len])
            nll, count, _, _ = self._episode_loss(sequence, prefix, prefix_len)
        return float(nll) / max(count, 1)

    def save(self, folder: Path) -> None:
        """The adapter (peft format), optimizer state and step count, written atomically."""
        tmp = folder.with_name(folder.name + ".tmp")
        if tmp.exists():
            _remove_tree(tmp)
        self.model.save_pretrained(str(tmp))
        torch.save(
            {"optimizer": self.optimizer.state_dict(), "steps": self.steps}, tmp / STATE_FILE
        )
        (tmp / CONFIG_FILE).write_text(json.dumps(asdict(self.config), indent=1) + "\n")
        if self.rows is not None:
            from safetensors.torch import save_file

            save_file(self.rows.state(), str(tmp / ROWS_FILE))
        if folder.exists():
            _remove_tree(folder)
        tmp.rename(folder)

    def load(self, folder: Path, adapter_only: bool = False) -> None:
        """Restore what ``save`` wrote; the LoRA shape must match this trainer's.
        ``adapter_only`` starts a new stage from those weights (fresh optimizer, step 0)."""
        saved = TrainConfig(**json.loads((folder / CONFIG_FILE).read_text()))
        if (saved.lora_rank, saved.lora_alpha) != (self.config.lora_rank, self.config.lora_alpha):
            raise ValueError(f"{folder} holds a LoRA of another shape: {saved}")
        from peft import set_peft_model_state_dict
        from safetensors.torch import load_file

        weights = load_file(str(folder / "adapter_model.safetensors"))
        result: Any = set_peft_model_state_dict(self.model, weights)
        if result.unexpected_keys:
            raise ValueError(f"{folder}: unexpected adapter keys {result.unexpected_keys[:3]}")
        rows_file = folder / ROWS_FILE
        if (self.rows is not None) != rows_file.is_file():
            raise ValueError(
                f"{folder}: token rows {'missing' if self.rows is not None else 'present'}"
                " (a checkpoint resumes only a trainer of the same kind)"
            )
        if self.rows is not None:
            self.rows.load(load_file(str(rows_file)))
        if adapter_only:
            return
        state = torch.load(folder / STATE_FILE, weights_only=True)
        self.optimizer.load_state_dict(state["optimizer"])
        self.steps = int(state["steps"])

    def adapter_state(self) -> dict[str, torch.Tensor]:
        """The LoRA weights as peft names them (for the llama.cpp adapter export)."""
        from peft import get_peft_model_state_dict

        return {k: v.detach() for k, v in get_peft_model_state_dict(self.model).items()}

    def rows_trained(self) -> list[int]:
        """The token ids whose rows this trainer trains (empty: none)."""
        return [] if self.rows is None else list(self.rows.token_ids)

    def export_adapter(self, path: Path) -> None:
        """The LoRA and the trained token rows as one llama.cpp adapter GGUF."""
        alpha = self.config.lora_alpha
        extra = self.rows.lora_tensors(alpha) if self.rows is not None else None
        write_lora_gguf(self.adapter_state(), alpha, path, extra=extra)


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path)
