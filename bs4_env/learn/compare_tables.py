"""The learning summary as Markdown: one table per subset (stages as rows), one of paired tests.

Printed by ``bs4-env learn`` and written to ``summary.md``; the figures are those of
``compare.compare_stages``, formatted, never recomputed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _mean_text(mean: Mapping[str, Any]) -> str:
    if mean["low"] is None:
        return f"{mean['mean']:.3f} (no CI, n={mean['n']})"
    return f"{mean['mean']:.3f} [{mean['low']:.3f}, {mean['high']:.3f}]"


def _share_text(share: Mapping[str, Any] | None) -> str:
    if share is None:
        return "-"
    return f"{share['rate']:.1%} [{share['low']:.1%}, {share['high']:.1%}]"


def markdown_tables(summary: Mapping[str, Any]) -> str:
    """One table per subset (stages as rows) and one table of the paired tests."""
    confidence = f"{summary['confidence']:.0%}"
    out: list[str] = []
    for subset in summary["subsets"]:
        out += [
            f"**{_cell(subset)}** (mean and shares with {confidence} intervals; "
            "errors count as failures)",
            "",
            f"| stage | n | errors | mean reward | pass (>= {summary['pass_threshold']}) "
            "| tool use | well-formed | spread |",
            "|---|---:|---:|---|---|---|---|---|",
        ]
        for stage in summary["stages"]:
            block = summary["results"][stage][subset]["overall"]
            out.append(
                f"| {_cell(stage)} | {block['n']} | {block['errors']} "
                f"| {_mean_text(block['reward'])} | {_share_text(block['pass'])} "
                f"| {_share_text(block['tool_use'])} | {_share_text(block['well_formed'])} "
                f"| {_share_text(block['spread'])} |"
            )
        out.append("")
    out += [
        f"**paired tests** (after - before on the same rows; {confidence} interval; "
        "two-sided sign-flip permutation p)",
        "",
        "| subset | stages | runs | pairs | mean difference | p | improved / worse / tied "
        "| errors before / after |",
        "|---|---|---|---:|---|---:|---|---|",
    ]
    for test in summary["paired"]:
        value = test["p_value"]
        p = (f"{value:.3f}" if value >= 0.001 else f"{value:.1e}") + (
            "" if test["exact"] else " (MC)"
        )
        out.append(
            f"| {_cell(test['subset'])} | {_cell(test['before'])} -> {_cell(test['after'])} "
            f"| {test['runs']} | {test['n_pairs']} | {_mean_text(test['mean_difference'])} | {p} "
            f"| {test['improved']} / {test['worse']} / {test['tied']} "
            f"| {test['errors_before']} / {test['errors_after']} |"
        )
    return "\n".join(out) + "\n"
