"""The imitation control's registered settings, below :mod:`bs4_lab.run` and the control stage
(which takes a ``Run``), so neither imports the other in a circle."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ControlSettings:
    """How closely the control's trained tokens must match EI's (a share of EI's)."""

    token_tolerance: float = 0.10
