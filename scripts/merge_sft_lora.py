"""Merge a prime-rl SFT run's LoRA adapter into its base model (the warm start RL begins from).

prime-rl main (559b447) cannot resume RL from an SFT run (an SFT run has no orchestrator
state), and it ships no merge or adapter-export entrypoint; an SFT run without online evals
writes only its trainer checkpoint, a torch DCP directory at
``<run-dir>/checkpoints/step_N/trainer``. Its LoRA layers (prime-rl's ``MultiLoRALinear``)
store adapter 0 as ``<module>.lora_A.0`` (rank x in) and ``<module>.lora_B.0`` (out x rank),
scaled by alpha / rank in the forward pass, and Qwen3's state-dict conversion to Hugging Face
names is the identity. So the merge is what peft's ``merge_and_unload`` does:
``W += (alpha / rank) * B @ A`` on each adapted module of the Hugging Face base model, then
``save_pretrained`` with its tokenizer. Run it with prime-rl's venv (torch, transformers)::

    uv run python scripts/merge_sft_lora.py --run-dir outputs/sft/RUN \
        --config configs/prime-rl/qwen3-4b-lora-sft-1xh100.sft.toml --out outputs/merged-sft

It has not run on a real SFT checkpoint yet (no GPU here).
"""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path
from typing import Any

LORA_KEY = re.compile(r"^(?P<module>.+)\.lora_(?P<which>[AB])\.0$")


def latest_checkpoint(run_dir: Path) -> Path:
    """The newest ``checkpoints/step_N/trainer`` directory of an SFT run."""
    steps = [p for p in (run_dir / "checkpoints").glob("step_*") if p.name[5:].isdigit()]
    if not steps:
        raise SystemExit(f"no checkpoints/step_N under {run_dir}")
    return max(steps, key=lambda p: int(p.name[5:])) / "trainer"


def load_lora(checkpoint: Path) -> dict[str, dict[str, Any]]:
    """Adapter 0's A and B per module path, read from the DCP checkpoint without the rest."""
    import torch
    import torch.distributed.checkpoint as dcp

    reader = dcp.FileSystemReader(str(checkpoint))
    metadata = reader.read_metadata().state_dict_metadata
    # Only the LoRA tensors: the frozen base weights come from the Hugging Face model, and the
    # optimizer state is not needed. Keys are flattened, e.g. "app.model.model.layers.0...".
    wanted = {
        key: torch.empty(meta.size, dtype=meta.properties.dtype)  # type: ignore[union-attr]
        for key, meta in metadata.items()
        if LORA_KEY.match(key)
    }
    if not wanted:
        raise SystemExit(f"no lora_A.0 / lora_B.0 tensors in {checkpoint}")
    dcp.load(wanted, storage_reader=reader)  # single process: DCP needs no process group
    modules: dict[str, dict[str, Any]] = {}
    for key, tensor in wanted.items():
        match = LORA_KEY.match(key)
        assert match is not None
        modules.setdefault(match["module"], {})[match["which"]] = tensor
    return modules


def merge(model: Any, modules: dict[str, dict[str, Any]], rank: int, alpha: float) -> int:
    """Fold each adapter into its base weight in place; returns how many modules merged."""
    import torch

    weights = dict(model.named_parameters())
    scale = alpha / rank
    for path, pair in modules.items():
        # The checkpoint key carries wrapper prefixes ("app.model."): drop leading components
        # until the Hugging Face model has the module's weight.
        parts = path.split(".")
        names = [".".join(parts[i:]) + ".weight" for i in range(len(parts))]
        name = next((n for n in names if n in weights), None)
        if name is None or set(pair) != {"A", "B"}:
            raise SystemExit(f"cannot place LoRA module {path} in the base model")
        a, b = pair["A"], pair["B"]
        if a.shape[0] != rank:
            raise SystemExit(f"{path}: lora_A has rank {a.shape[0]}, the config says {rank}")
        weight = weights[name]
        with torch.no_grad():
            delta = (b.float() @ a.float()) * scale
            weight.copy_((weight.float() + delta).to(weight.dtype))
    return len(modules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run-dir", type=Path, required=True, help="the SFT run directory")
    parser.add_argument("--config", type=Path, required=True, help="the SFT config it ran")
    parser.add_argument("--out", type=Path, required=True, help="where the merged model goes")
    args = parser.parse_args()

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    config = tomllib.loads(args.config.read_text())
    base, lora = config["model"]["name"], config["model"]["lora"]
    checkpoint = latest_checkpoint(args.run_dir)
    modules = load_lora(checkpoint)
    model = AutoModelForCausalLM.from_pretrained(base, torch_dtype=torch.bfloat16)
    count = merge(model, modules, int(lora["rank"]), float(lora["alpha"]))
    model.save_pretrained(args.out, safe_serialization=True)
    AutoTokenizer.from_pretrained(base).save_pretrained(args.out)
    print(f"merged {count} LoRA modules from {checkpoint} into {base}: {args.out}")


if __name__ == "__main__":
    main()
