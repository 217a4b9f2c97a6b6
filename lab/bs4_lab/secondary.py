"""Run 4's registered secondary figures, computed by the report from the eval documents.

* ``held_out`` and ``limitation``: the control -> EI paired tests of the summary (archetypes
  and rows as units) and the transfer measures (NLL, first programs, answered share);
* ``real``: each model's behaviour on the pinned rows of ``real`` (``real_measures``) and
  control -> EI, SFT -> EI paired on rows;
* ``warm_start``: this run's SFT on the trained archetypes' eval rows against run 3's SFT: the
  share of rows with no final answer plus solvable rows abstained on (registered target: the
  new warm start halves it), on all rows and on the archetypes both runs evaluated, with a
  Fisher exact test (the rows differ, so the comparison is unpaired).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from scipy import stats

from bs4_lab.real_measures import behaviour, paired_behaviour, warm_start_rate
from bs4_lab.real_settings import MODELS, document_path

RUN_3_SFT = Path("outputs") / "learn-0p5b-run3-ei" / "eval-sft" / "trained-greedy.json"
"""Run 3's SFT adapter on its trained archetypes' eval rows (committed), relative to the
repository root."""
WARM_START_TARGET = "at most half of run 3's SFT rate"


def _repo_root() -> Path:
    from bs4_env.cli.config_registry import REPO_ROOT

    return Path(REPO_ROOT)


def _records(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run its eval stage first")
    records: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["rollouts"]
    return records


def warm_start_baseline() -> dict[str, Any]:
    """Run 3's SFT rate on its trained rows, from the committed document (file and sha256)."""
    path = _repo_root() / RUN_3_SFT
    records = _records(path)
    return {
        "file": str(RUN_3_SFT),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "archetypes": sorted({r["archetype"] for r in records}),
        "rate": warm_start_rate(records),
    }


def _flags(records: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    rate = warm_start_rate(records)
    return int(rate["k"]), int(rate["n"])


def _against(new: Sequence[Mapping[str, Any]], old: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    (k1, n1), (k0, n0) = _flags(new), _flags(old)
    _, p = stats.fisher_exact([[k1, n1 - k1], [k0, n0 - k0]])
    rate, baseline = k1 / n1, k0 / n0
    return {
        "rate": warm_start_rate(new),
        "run_3_rate": warm_start_rate(old),
        "ratio": round(rate / baseline, 4) if baseline else None,
        "fisher_p": float(p),
        "target_met": rate <= baseline / 2,
    }


def warm_start(out: Path) -> dict[str, Any] | None:
    """This run's SFT against run 3's (None until eval-sft ran)."""
    path = out / "eval-sft" / "trained-greedy.json"
    if not path.is_file():
        return None
    new = _records(path)
    old = _records(_repo_root() / RUN_3_SFT)
    shared = {r["archetype"] for r in old} & {r["archetype"] for r in new}
    return {
        "target": WARM_START_TARGET,
        "all_rows": _against(new, old),
        "shared_archetypes": len(shared),
        "on_shared_archetypes": _against(
            [r for r in new if r["archetype"] in shared],
            [r for r in old if r["archetype"] in shared],
        )
        if shared
        else None,
        "sft": behaviour(new),
    }


def real_pages(out: Path) -> dict[str, Any] | None:
    """Each model on the real rows and EI against control and SFT (None until eval-real)."""

    if not (out / "stages" / "eval-real.json").is_file():
        return None
    records = {model: _records(document_path(out, model)) for model in MODELS}
    return {
        "models": {model: behaviour(recs) for model, recs in records.items()},
        "paired": {
            f"{before} -> ei": paired_behaviour(records[before], records["ei"])
            for before in ("control", "sft")
        },
    }


def secondary_results(out: Path, summary: Mapping[str, Any]) -> dict[str, Any]:
    """The registered secondaries, from the eval documents and the summary's paired tests."""
    tests = {
        subset: [
            t
            for t in summary["paired"]
            if t["subset"] == subset and (t["before"], t["after"]) == ("control", "ei")
        ]
        for subset in ("held_out", "limitation")
    }
    transfer = summary.get("transfer")
    return {
        "held_out": {
            "control -> ei": tests["held_out"],
            "transfer_nll": None if transfer is None else transfer["nll"].get("control -> ei"),
            "transfer_rows": None if transfer is None else transfer["rows"],
            "transfer_rows_paired": None
            if transfer is None
            else transfer["rows_paired"].get("control -> ei"),
        },
        "limitation": {"control -> ei": tests["limitation"]},
        "real": real_pages(out),
        "warm_start": warm_start(out),
    }
