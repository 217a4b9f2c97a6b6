"""The ``eval-real`` stage's registered settings and document layout, below :mod:`bs4_lab.run`
and the stage itself (which takes a ``Run``), so neither imports the other in a circle."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

FOLDER = "eval-real"
MODELS = ("base", "sft", "ei", "control")


def document_path(out: Path, model: str) -> Path:
    """Where ``eval-real`` writes ``model``'s greedy results document."""
    return out / FOLDER / f"{model}-greedy.json"


@dataclass(frozen=True)
class RealSettings:
    """Which page set (``real`` or a rows file) and how many of its first rows."""

    pages: str = "real"
    rows: int = 70

    def registered(self) -> dict[str, Any]:
        from bs4_env.pages.selection import rows_version

        return {"pages": self.pages, "rows": self.rows, "pages_version": rows_version(self.pages)}
