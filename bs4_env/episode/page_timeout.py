"""Seconds per ``run_python`` call on a labelled page: the budget's, plus time in proportion to
the page's size, bounded.

Real pages run up to about 1.4 MB, and parsing is roughly linear in size: ``html.parser`` needs
about 9 s for a 2.7 MB page on a loaded machine, so a flat 10 s budget times out correct code on
the largest pages. Generated pages are small and keep the flat budget; a row that sets its own
``timeout_s`` keeps it as given.
"""

from __future__ import annotations

from typing import Any

PER_MB_S = 4.0
"""Extra seconds per megabyte (10^6 bytes of UTF-8) of the page."""
MAX_EXTRA_S = 20.0
"""The most extra seconds any page gets, however large (a raised ``max_page_bytes``)."""


def page_timeout_s(base_s: float, page_bytes: int) -> float:
    """``base_s + PER_MB_S`` per MB of page, at most ``base_s + MAX_EXTRA_S``; to 0.1 s."""
    if page_bytes < 0:
        raise ValueError(f"page size must be >= 0 bytes, got {page_bytes}")
    return round(base_s + min(PER_MB_S * page_bytes / 1_000_000, MAX_EXTRA_S), 1)


def page_timeout_rule() -> dict[str, Any]:
    """The rule as recorded in results, beside the budget's ``timeout_s``."""
    return {"applies_to": "labelled pages without their own timeout_s",
            "per_mb_s": PER_MB_S, "max_extra_s": MAX_EXTRA_S}  # fmt: skip
