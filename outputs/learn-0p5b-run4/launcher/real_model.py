"""Run 4's ``eval-real`` for one model, beside the stage's own process (2026-12-07).

The stage evaluates base, SFT, EI and control one after another, each into its own document
(``eval-real/<model>-greedy.json``) and keeps a finished document. This driver runs the frozen
code's ``_evaluate`` for the model named in ``REAL_MODEL`` with the run's own settings (the
same ``learn`` arguments: ``Run`` refuses settings other than the plan's), so a core the other
process left idle can evaluate the control while the stage still evaluates EI. It writes no
stage marker: the stage itself, run again once every document is finished, computes the
figures and writes it. Never run it on a model whose journal another process is writing.

Usage (from run4.sh): ENTRY=.../real_model.py REAL_MODEL=control run4.sh eval-real
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import bs4_lab.pipeline
from bs4_env.cli.main import main
from bs4_lab.real_eval_stage import _evaluate, _rows
from bs4_lab.real_settings import MODELS
from bs4_lab.run import Run

MODEL = os.environ.get("REAL_MODEL", "")
if MODEL not in MODELS:
    sys.exit(f"real_model.py: REAL_MODEL must be one of {MODELS}, not {MODEL!r}")


async def one_model(out: Path, settings: Any, stages: list[str], say: Any) -> None:
    if stages != ["eval-real"]:
        raise ValueError(f"real_model.py evaluates eval-real's models only, not {stages}")
    run = Run(out, settings)
    run.check_generators()
    run.check("eval-real")
    run.check("evaluation")
    document = await _evaluate(run, MODEL, _rows(run.settings.real))
    say(f"eval-real {MODEL}: {len(document['rollouts'])} rows, avg {document['avg_reward']}")


bs4_lab.pipeline.run_stages = one_model
sys.exit(main(sys.argv[1:]))
