"""``bs4-env report``: one self-contained HTML page from a ``bs4-env eval`` results JSON.

The page has the run's settings, per-archetype / difficulty / category tables (recomputed from
the rollouts with ``summarize``, so they always match what is listed), reward histograms
(matplotlib SVG, see ``report_plots``) and every rollout as a ``<details>`` row whose
transcript opens with one click. It loads nothing: no script at all, styles inline, figures
as ``data:`` URIs; a Content-Security-Policy forbids scripts and every remote load, as a
second guard behind the escaping of every value taken from the file.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from bs4_env.evaluation.report import is_error, summarize
from bs4_env.evaluation.report_input import ReportInputError, load_results
from bs4_env.evaluation.report_plots import grouped_histograms, reward_histogram
from bs4_env.evaluation.report_transcript import esc, rollout_html, rollout_id

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
_STAT_KEYS = {
    "n", "completed", "errors", "avg_reward", "avg_reward_errors_as_zero", "pass_rate",
    "perfect_rate", "by_archetype", "by_difficulty", "by_category", "usage", "rollouts",
}  # fmt: skip
_BREAKDOWNS = (("archetype", "by_archetype"), ("difficulty", "by_difficulty"),
               ("category", "by_category"))  # fmt: skip

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;
color:#1d1d1f}
h1{font-size:1.5em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}th,td{padding:.2em .7em;text-align:right;
border-bottom:1px solid #eee}th:first-child,td:first-child{text-align:left}
.meta th{text-align:left;color:#555}.meta td{text-align:left}
.err{color:#b00020;font-weight:600}.figures img{max-width:100%;display:block;margin:.5em 0}
.rollouts summary,.rollout-head{display:grid;cursor:pointer;gap:.6em;padding:.25em .4em;
grid-template-columns:15em 7em 5.5em 6.5em 4.5em 1fr;align-items:baseline}
.rollout-head{font-weight:600;cursor:default;border-bottom:2px solid #ccc}
.rollout{border-bottom:1px solid #eee}.rollout[open]{background:#fafafa}
.rollout summary:hover{background:#f0f4fa}.c-explanation{color:#555;overflow:hidden;
text-overflow:ellipsis;white-space:nowrap}
.r-full{color:#17713a}.r-part{color:#9a6700}.r-zero,.r-neg{color:#b00020}.r-error{color:#fff;
background:#b00020;border-radius:3px;padding:0 .3em}
.body{padding:.3em 1em 1em}.msg,.final{margin:.5em 0;border-left:3px solid #ccc;padding-left:.6em}
.m-assistant{border-color:#3b6ea5}.m-tool{border-color:#9a6700}.final{border-color:#17713a}
.role{font-weight:600;color:#555}pre{white-space:pre-wrap;word-break:break-word;margin:.2em 0;
background:#f4f4f4;padding:.4em;max-height:40em;overflow:auto}
.components th,.components td{font-size:12px;padding:0 .5em}.error-text{color:#b00020}
"""


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _meta_html(results: dict[str, Any], path_label: str) -> str:
    rows: list[tuple[str, object]] = [("results file", path_label)]
    rows += [
        (key, value)
        for key, value in results.items()
        if key not in _STAT_KEYS and isinstance(value, str | int | float | bool | None)
    ]
    usage = results.get("usage") or {}
    rows.append(("tokens", f"{usage.get('prompt_tokens', 0)} prompt, "
                           f"{usage.get('completion_tokens', 0)} completion"))  # fmt: skip
    cells = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows)
    return f'<table class="meta">{cells}</table>'


def _stats_row(name_html: str, stats: dict[str, Any]) -> str:
    errors = int(stats["errors"])
    error_cell = f'<td class="err">{errors}</td>' if errors else "<td>0</td>"
    return (
        f"<tr><td>{name_html}</td><td>{stats['n']}</td>{error_cell}"
        f"<td>{stats['avg_reward']:.3f}</td><td>{stats['avg_reward_errors_as_zero']:.3f}</td>"
        f"<td>{_pct(stats['pass_rate'])}</td><td>{_pct(stats['perfect_rate'])}</td></tr>"
    )


def _table_html(label: str, key: str, summary: dict[str, Any], first: dict[str, str]) -> str:
    """One breakdown table; an archetype's name links to its first rollout."""
    head = (
        f"<tr><th>{esc(label)}</th><th>n</th><th>errors</th><th>mean reward</th>"
        "<th>mean, errors as 0</th><th>pass (&ge;0.5)</th><th>perfect</th></tr>"
    )
    rows = []
    for name, stats in summary[key].items():
        cell = esc(name)
        if label == "archetype" and name in first:
            cell = f'<a href="#{esc(first[name])}">{cell}</a>'
        rows.append(_stats_row(cell, stats))
    rows.append(_stats_row("<b>all</b>", summary))
    return (
        f'<h3>By {esc(label)}</h3><table class="breakdown" id="by-{esc(label)}">'
        f"<thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _figures_html(records: list[dict[str, Any]]) -> str:
    scored = [r for r in records if not is_error(r)]
    if not scored:
        return "<p>No completed rollout: nothing to plot.</p>"
    by: dict[str, dict[str, list[float]]] = {"difficulty": defaultdict(list),
                                             "category": defaultdict(list)}  # fmt: skip
    for record in scored:
        for field, groups in by.items():
            groups[str(record[field])].append(float(record["reward"]))
    rewards = [float(r["reward"]) for r in scored]
    figures = [
        (
            "overall",
            reward_histogram(rewards, f"Reward, all completed rollouts (n={len(rewards)})"),
        ),
        *(
            (field, grouped_histograms(groups, f"Reward by {field}"))
            for field, groups in by.items()
        ),
    ]
    left_out = len(records) - len(scored)
    note = f"<p>{left_out} error row(s) have no reward and are not plotted.</p>" if left_out else ""
    images = "".join(
        f'<img class="histogram" id="hist-{name}" src="{uri}" '
        f'alt="Histogram of rewards ({esc(name)})">'
        for name, uri in figures
    )
    return f'<div class="figures">{note}{images}</div>'


def render_report(results: dict[str, Any], path_label: str = "") -> str:
    """The report page for a checked results document (see ``report_input.check_results``)."""
    records = list(results["rollouts"])
    summary = summarize(records, {})
    first: dict[str, str] = {}
    for record in summary["rollouts"]:
        first.setdefault(str(record["archetype"]), rollout_id(record))
    title = f"bs4-env report: {results.get('model', '?')} on {results.get('split', '?')}"
    errors = summary["errors"]
    headline = (
        f"<p><b>{summary['n']}</b> rollouts, mean reward <b>{summary['avg_reward']:.3f}</b> "
        f"over {summary['completed']} completed"
        + (f', <span class="err">{errors} error row(s)</span> '
           f"({summary['avg_reward_errors_as_zero']:.3f} with errors as 0)" if errors else "")
        + ".</p>"
    )  # fmt: skip
    tables = "".join(_table_html(label, key, summary, first) for label, key in _BREAKDOWNS)
    head_row = "".join(
        f"<span>{name}</span>"
        for name in ("archetype", "seed", "difficulty", "category", "reward", "explanation")
    )
    rollouts = "".join(rollout_html(record) for record in summary["rollouts"])
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{esc(title)}</h1>{headline}{_meta_html(results, path_label)}"
        f'<h2>Breakdown</h2><div class="tables">{tables}</div>'
        f"<h2>Reward histograms</h2>{_figures_html(summary['rollouts'])}"
        f"<h2>Rollouts</h2><p>Click a row to show its transcript.</p>"
        f'<div class="rollouts"><div class="rollout-head">{head_row}</div>{rollouts}</div>'
        "</body></html>\n"
    )


def default_output(results_path: Path) -> Path:
    """``RESULTS.json`` -> ``RESULTS.html`` beside it."""
    return results_path.with_suffix(".html")


def write_report(results_path: Path, output: Path | None = None) -> Path:
    """Render ``results_path`` into ``output`` (default: beside it, ``.html``), atomically."""
    results = load_results(results_path)
    output = output or default_output(results_path)
    if output.resolve() == results_path.resolve():
        raise ReportInputError(f"{output}: the report would overwrite its own input; use --out")
    page = render_report(results, str(results_path))
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_text(page, encoding="utf-8")
    os.replace(tmp, output)
    return output
