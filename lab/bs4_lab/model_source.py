"""Where the learning run's model comes from: a GGUF file (trained dequantized, served as is)
or the tiny random Qwen2 built in memory (the CI test of the same code path)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_GGUF = Path.home() / ".cache/bs4-localmodel/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
TINY = "tiny"


@dataclass(frozen=True)
class ModelSource:
    """``gguf``: the file at ``path``; ``tiny``: ``tiny_qwen2(seed)`` (plumbing only)."""

    kind: str
    path: Path | None = None
    seed: int = 0

    @classmethod
    def parse(cls, text: str) -> ModelSource:
        if text == TINY:
            return cls(TINY)
        path = Path(text).expanduser()
        if path.suffix != ".gguf":
            raise ValueError(f"--model must be a .gguf file or {TINY!r}, got {text!r}")
        if not path.is_file():
            raise ValueError(
                f"{path} not found; the 0.5B model is set up by "
                "../shared/tools/local-model-setup.sh 0.5b"
            )
        return cls("gguf", path)

    @property
    def label(self) -> str:
        return self.kind if self.path is None else self.path.name

    def load(self) -> tuple[Any, Any]:
        """The model in float32 for training and its tokenizer (the chat template inside)."""
        import torch

        if self.path is None:
            from bs4_lab.tiny_model import tiny_qwen2

            return tiny_qwen2(self.seed)
        from transformers import AutoModelForCausalLM

        from bs4_lab.qwen_tokenizer import tokenizer_from_gguf

        # transformers dequantizes the GGUF's Q4_K/Q6_K blocks to float32 exactly; llama.cpp
        # serves the quantized file with its own quantized matrix products, so served and
        # trained logits differ by that arithmetic (up to ~0.2-0.4 logprob on top tokens).
        model = AutoModelForCausalLM.from_pretrained(
            str(self.path.parent), gguf_file=self.path.name, dtype=torch.float32
        )
        return model, tokenizer_from_gguf(self.path)

    def serving_file(self, folder: Path) -> Path:
        """The GGUF llama.cpp serves as the base (the tiny model is written once)."""
        if self.path is not None:
            return self.path
        target = folder / "tiny-base.gguf"
        if not target.is_file():
            from bs4_lab.gguf_export import write_base_gguf

            model, tokenizer = self.load()
            folder.mkdir(parents=True, exist_ok=True)
            write_base_gguf(model, tokenizer, target.with_suffix(".part"))
            target.with_suffix(".part").rename(target)
        return target
