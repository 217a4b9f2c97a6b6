"""Evaluate a served model (base, or base plus a LoRA adapter) on the plan's eval rows.

Base and tuned models are served the same way: llama.cpp's server on the same GGUF, the
adapter (if any) as a llama.cpp LoRA GGUF, tool calls parsed strictly (``<tool_call>`` tags
only, as vLLM's hermes parser in training). Every row runs once greedily (temperature 0) and
``samples`` more times at ``sample_temperature``, through ``bs4_env.evaluation.runner``, so
each results file is a normal ``bs4-env eval`` document (resumable, reportable).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bs4_env.episode.engine import Budgets
from bs4_env.episode.executors import make_executor
from bs4_env.evaluation.openai_policy import Endpoint, OpenAIChatPolicy
from bs4_env.evaluation.runner import evaluate
from bs4_env.tasks.splits import Row
from bs4_lab.llama_server import LlamaServer


@dataclass(frozen=True)
class EvalSettings:
    """Budgets of one evaluated episode and the sampling used to measure spread."""

    max_tokens: int = 768
    max_turns: int = 6
    max_tool_calls: int = 4
    max_output_bytes: int = 3000
    samples: int = 4
    sample_temperature: float = 0.7
    parallel: int = 4
    ctx_per_slot: int = 6144

    def budgets(self) -> Budgets:
        """The engine budgets of one episode."""
        return Budgets(max_tool_calls=self.max_tool_calls, max_output_bytes=self.max_output_bytes)

    def server(self, base_gguf: Path, adapter_gguf: Path | None, log_path: Path) -> LlamaServer:
        """llama.cpp serving ``base_gguf`` (plus the adapter) with ``parallel`` slots."""
        return LlamaServer(
            base_gguf,
            lora_gguf=adapter_gguf,
            log_path=log_path,
            ctx_size=self.ctx_per_slot * self.parallel,
            parallel=self.parallel,
        )


def greedy_path(folder: Path, subset: str) -> Path:
    return folder / f"{subset}-greedy.json"


def sample_path(folder: Path, subset: str, k: int) -> Path:
    return folder / f"{subset}-sample{k}.json"


async def evaluate_served(
    label: str,
    base_gguf: Path,
    adapter_gguf: Path | None,
    rows_by_subset: Mapping[str, Sequence[tuple[str, int]]],
    folder: Path,
    settings: EvalSettings,
    progress: bool = True,
) -> dict[str, dict[str, Any]]:
    """Greedy and sampled results per subset, written under ``folder`` (resumable)."""
    folder.mkdir(parents=True, exist_ok=True)
    budgets = settings.budgets()
    out: dict[str, dict[str, Any]] = {}
    server = settings.server(base_gguf, adapter_gguf, folder / "server.log")
    async with server, make_executor("local", concurrency=settings.parallel) as executor:
        endpoint = Endpoint(server.base_url, "local")
        runs = [(0.0, None)] + [(settings.sample_temperature, k) for k in range(settings.samples)]
        # Greedy runs of every subset first: an interrupted stage already has the headline
        # figures of all subsets; the samples (spread) follow.
        for temperature, k in runs:
            for subset, pairs in rows_by_subset.items():
                rows = [Row(archetype, seed, "eval") for archetype, seed in pairs]
                policy = OpenAIChatPolicy(
                    server.model, endpoint, settings.max_tokens, temperature, timeout_s=900.0
                )
                path = greedy_path(folder, subset) if k is None else sample_path(folder, subset, k)
                finished = _finished(path, pairs, temperature)
                if finished is not None:
                    # The runner resumes only from its journal, which a finished run deletes.
                    out.setdefault(subset, {})["greedy" if k is None else f"sample{k}"] = finished
                    continue
                header = {
                    "model": f"{label} ({server.model})",
                    "split": "eval",
                    "mode": f"learn:{subset}",
                    "bench_version": None,
                    "temperature": temperature,
                    "max_tokens": settings.max_tokens,
                    "max_output_bytes": settings.max_output_bytes,
                }
                try:
                    results = await evaluate(
                        rows,
                        lambda _task, p=policy: p,  # type: ignore[misc]
                        executor,
                        path,
                        header,
                        settings.parallel,
                        budgets,
                        settings.max_turns,
                        resume=True,
                        progress=progress,
                    )
                finally:
                    await policy.aclose()
                out.setdefault(subset, {})["greedy" if k is None else f"sample{k}"] = results
    return out


def _finished(
    path: Path, pairs: Sequence[tuple[str, int]], temperature: float
) -> dict[str, Any] | None:
    """The results document of an earlier, finished run of these rows (None: run them)."""
    if not path.is_file():
        return None
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    keys = sorted((r["archetype"], r["seed"]) for r in document.get("rollouts", []))
    if keys != sorted((a, s) for a, s in pairs) or document.get("temperature") != temperature:
        raise ValueError(
            f"{path} holds another evaluation (other rows or temperature); remove it or use"
            " a new --out folder"
        )
    if document.get("errors"):
        return None  # its error rows are retried from the journal
    return document
