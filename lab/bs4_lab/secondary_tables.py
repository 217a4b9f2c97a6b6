"""Run 4's secondary figures as Markdown (``summary.md``), formatted, never recomputed.

The held-out and limitation comparisons (control -> EI) are rows of the paired-test table and
the transfer tables; this adds the warm-start rate against run 3 and the real pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bs4_lab.compare_tables import _mean_text, _p_text, _share_text

_REAL_MEASURES = (
    ("tool_use", "tool use"),
    ("first_program_ok", "first program ran"),
    ("answered", "solvable rows answered"),
    ("abstained_solvable", "abstained on an extractable page"),
    ("no_final", "no final answer"),
)


def _warm_rows(warm: Mapping[str, Any]) -> list[str]:
    out = []
    for label, key in (
        ("all trained rows", "all_rows"),
        ("shared archetypes", "on_shared_archetypes"),
    ):
        block = warm.get(key)
        if block is None:
            continue
        ratio = "-" if block["ratio"] is None else f"{block['ratio']:.2f}"
        out.append(
            f"| {label} | {_share_text(block['rate'])} ({block['rate']['k']}/{block['rate']['n']})"
            f" | {_share_text(block['run_3_rate'])} | {ratio} | {_p_text(block['fisher_p'])}"
            f" | {'met' if block['target_met'] else 'not met'} |"
        )
    return out


def secondary_tables(summary: Mapping[str, Any]) -> str:
    """The warm-start and real-page tables, where the summary has them."""
    secondary = summary.get("secondary")
    if secondary is None:
        return ""
    out: list[str] = []
    warm = secondary.get("warm_start")
    if warm is not None:
        out += [
            "**warm start** (SFT on the trained rows: no final answer plus abstained on a"
            f" solvable page; target {warm['target']}; unpaired, Fisher exact p)",
            "",
            "| rows | this run | run 3's SFT | ratio | p | target |",
            "|---|---|---|---:|---:|---|",
            *_warm_rows(warm),
            "",
        ]
    real = secondary.get("real")
    if real is not None:
        names = " | ".join(title for _, title in _REAL_MEASURES)
        out += [
            "**real pages** (greedy; Wilson 95% intervals)",
            "",
            f"| model | rows | reward | {names} |",
            "|---|---:|---|" + "---|" * len(_REAL_MEASURES),
        ]
        for model, block in real["models"].items():
            cells = " | ".join(_share_text(block[key]) for key, _ in _REAL_MEASURES)
            out.append(f"| {model} | {block['n']} | {_mean_text(block['reward'])} | {cells} |")
        out += [
            "",
            "| models | reward difference | p | answered difference | p |",
            "|---|---|---:|---|---:|",
        ]
        for pair, tests in real["paired"].items():
            answered = tests["answered"]
            answered_text = (
                "- | -"
                if answered is None
                else f"{_mean_text(answered['mean_difference'])} | {_p_text(answered['p_value'])}"
            )
            reward = tests["reward"]
            out.append(
                f"| {pair} | {_mean_text(reward['mean_difference'])}"
                f" | {_p_text(reward['p_value'])} | {answered_text} |"
            )
        out.append("")
    return "\n".join(out) + ("\n" if out else "")
