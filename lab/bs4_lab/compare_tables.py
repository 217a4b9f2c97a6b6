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
            f"| stage | archetypes | mean over archetypes | n rows | errors | mean over rows "
            f"| pass (>= {summary['pass_threshold']}) | tool use | well-formed | spread |",
            "|---|---:|---|---:|---:|---|---|---|---|---|",
        ]
        for stage in summary["stages"]:
            result = summary["results"][stage][subset]
            block = result["overall"]
            # Summaries written before archetype-level figures existed have none.
            level = result.get("archetype_level")
            archetypes = "-" if level is None else str(level["n_archetypes"])
            by_archetype = "-" if level is None else _mean_text(level["reward"])
            out.append(
                f"| {_cell(stage)} | {archetypes} | {by_archetype} | {block['n']} "
                f"| {block['errors']} "
                f"| {_mean_text(block['reward'])} | {_share_text(block['pass'])} "
                f"| {_share_text(block['tool_use'])} | {_share_text(block['well_formed'])} "
                f"| {_share_text(block['spread'])} |"
            )
        out.append("")
    out += [
        f"**paired tests** (after - before on the same rows; {confidence} interval; "
        "two-sided sign-flip permutation p; unit 'archetype' is primary: each archetype's "
        "mean over its rows counts once)",
        "",
        "| subset | stages | runs | unit | pairs | mean difference | p | improved / worse / tied "
        "| errors before / after |",
        "|---|---|---|---|---:|---|---:|---|---|",
    ]
    for test in summary["paired"]:
        value = test["p_value"]
        p = (f"{value:.3f}" if value >= 0.001 else f"{value:.1e}") + (
            "" if test["exact"] else " (MC)"
        )
        out.append(
            f"| {_cell(test['subset'])} | {_cell(test['before'])} -> {_cell(test['after'])} "
            f"| {test['runs']} | {test.get('unit', 'row')} | {test['n_pairs']} "
            f"| {_mean_text(test['mean_difference'])} | {p} "
            f"| {test['improved']} / {test['worse']} / {test['tied']} "
            f"| {test['errors_before']} / {test['errors_after']} |"
        )
    return "\n".join(out) + "\n"


def _p_text(value: float) -> str:
    return f"{value:.3f}" if value >= 0.001 else f"{value:.1e}"


def design_tables(summary: Mapping[str, Any]) -> str:
    """The registered primary endpoint's result and the transfer measures, where present."""
    out: list[str] = []
    primary = summary.get("primary")
    if primary is not None:
        result = primary["result"]
        verdict = "not yet measured" if result is None else ("met" if primary["met"] else "not met")
        out += [
            f"**primary endpoint** ({primary['comparison']}, {primary['subset']}, unit "
            f"{primary['unit']}, {primary['success']}): {verdict}",
            "",
        ]
        if result is not None:
            out += [
                f"mean gain {_mean_text(result['mean_difference'])} over {result['n_pairs']} "
                f"archetypes, p = {_p_text(result['p_value'])}, improved / worse / tied "
                f"{result['improved']} / {result['worse']} / {result['tied']}",
                "",
            ]
    transfer = summary.get("transfer")
    if transfer is not None:
        out += [
            f"**transfer: NLL per assistant token of {transfer['episodes']} verified held-out "
            "episodes** (after - before, per episode; negative = likelier under the later model)",
            "",
            "| models | mean before | mean after | mean difference | p | lower / higher / tied |",
            "|---|---|---|---|---:|---|",
        ]
        for pair, test in transfer["nll"].items():
            out.append(
                f"| {pair} | {_mean_text(test['mean_before'])} | {_mean_text(test['mean_after'])}"
                f" | {_mean_text(test['mean_difference'])} | {_p_text(test['p_value'])} "
                f"| {test['worse']} / {test['improved']} / {test['tied']} |"
            )
        out += [
            "",
            "**transfer: row measures** (Wilson 95% intervals)",
            "",
            "| model | subset | first program ran | solvable rows answered |",
            "|---|---|---|---|",
        ]
        for model, subsets in transfer["rows"].items():
            for subset, measures in subsets.items():
                out.append(
                    f"| {model} | {subset} | {_share_text(measures['first_program_ok'])} "
                    f"| {_share_text(measures['answered'])} |"
                )
        out.append("")
    return "\n".join(out) + ("\n" if out else "")
