"""The ``eval-real`` stage: base, SFT, EI and control on the first rows of the ``real`` set.

Real product and news pages (docs/real-pages.md) are an evaluation set only: they never enter
training, and their results are reported on their own. The stage serves each model as the
other eval stages do (llama.cpp, the same budgets), greedily, on the first ``rows`` rows in
serving order (a stratified prefix: ``-n 70`` holds every family), and writes one results
document per model to ``<out>/eval-real/<model>-greedy.json`` (resumable from the runner's
journal; a finished document is kept). The plan pins the rows file's version
(``pages_version``): a stage on another version is refused, and so is a run whose pages are not
in the local cache (``bs4-env real fetch`` fills it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bs4_lab.real_measures import behaviour, paired_behaviour
from bs4_lab.real_settings import MODELS, RealSettings, document_path

if TYPE_CHECKING:
    from bs4_lab.run import Run


def real_rows(settings: RealSettings) -> list[Any]:
    """The registered rows, loaded from the page cache; a clear error where they are not there."""
    from bs4_env.pages.cache import cache_root
    from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
    from bs4_env.pages.selection import page_rows

    try:
        return page_rows(settings.pages, DEFAULT_MAX_PAGE_BYTES, settings.rows)
    except (ValueError, OSError) as error:
        raise ValueError(
            f"eval-real cannot load the pages of {settings.pages!r} from the page cache"
            f" ({cache_root() / 'pages'}): {error}. Fetch them first with `bs4-env real fetch`"
            " (docs/real-pages.md), then resume the run"
        ) from None


def _finished(path: Path, rows: list[Any]) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    keys = sorted((r["archetype"], r["seed"]) for r in document.get("rollouts", []))
    if keys != sorted((row.archetype_id, row.seed) for row in rows):
        raise ValueError(f"{path} holds another evaluation (other rows); remove it")
    return None if document.get("errors") else document


async def _evaluate(run: Run, model: str, rows: list[Any]) -> dict[str, Any]:
    from bs4_env.episode.executors import make_executor
    from bs4_env.evaluation.openai_policy import Endpoint, OpenAIChatPolicy
    from bs4_env.evaluation.runner import evaluate
    from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
    from bs4_env.pages.selection import page_task_builder, pages_header

    settings, real = run.settings.evaluation, run.settings.real
    path = document_path(run.out, model)
    finished = _finished(path, rows)
    if finished is not None:
        return finished
    adapter = None if model == "base" else run.adapter_gguf(model)
    server = settings.server(run.base_gguf(), adapter, path.with_suffix(".server.log"))
    async with server, make_executor("local", concurrency=settings.parallel) as executor:
        policy = OpenAIChatPolicy(
            server.model,
            Endpoint(server.base_url, "local"),
            settings.max_tokens,
            0.0,
            timeout_s=900.0,
        )
        header = {
            "model": f"{model} ({server.model})",
            "split": rows[0].split,
            "mode": "learn:real",
            "bench_version": None,
            "temperature": 0.0,
            "max_tokens": settings.max_tokens,
            "max_output_bytes": settings.max_output_bytes,
            **pages_header(real.pages, DEFAULT_MAX_PAGE_BYTES),
        }
        try:
            return await evaluate(
                rows,
                lambda _task: policy,
                executor,
                path,
                header,
                settings.parallel,
                settings.budgets(),
                settings.max_turns,
                resume=True,
                progress=run.settings.progress,
                task_for=page_task_builder(real.pages, DEFAULT_MAX_PAGE_BYTES),
            )
        finally:
            await policy.aclose()


async def evaluate_real(run: Run) -> dict[str, Any]:
    """Every model on the pinned rows; returns each model's measures and EI against the rest."""
    rows = real_rows(run.settings.real)
    documents = {model: await _evaluate(run, model, rows) for model in MODELS}
    records = {model: doc["rollouts"] for model, doc in documents.items()}
    return {
        "models": {model: behaviour(recs) for model, recs in records.items()},
        "paired": {
            f"{before} -> ei": paired_behaviour(records[before], records["ei"])
            for before in ("control", "sft")
        },
        "files": {model: str(document_path(run.out, model)) for model in MODELS},
    }
