"""The names of the learning run's stages, in order (see :mod:`bs4_lab.pipeline`).

Kept apart from the pipeline so that ``bs4-env``'s argument parser can name them without
importing the training stack.
"""

from __future__ import annotations

STAGES = (
    "plan",
    "data",
    "eval-base",
    "sft",
    "eval-sft",
    "rl",
    "eval-rl",
    "ei",
    "eval-ei",
    "control",
    "eval-control",
    "eval-real",
    "transfer",
    "report",
)
