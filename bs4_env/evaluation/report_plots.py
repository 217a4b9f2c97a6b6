"""Reward histograms for the HTML report, drawn with matplotlib as SVG ``data:`` URIs.

matplotlib (the ``report`` extra) rather than a JavaScript plotting library: the figures are
static SVG, so the report needs no script at all to show them, stays small (a few kB per
figure instead of megabytes of inline JS) and is byte-stable for the same results (fixed SVG
hash salt, no date metadata). Each figure is embedded as an ``<img>`` ``data:`` URI, which also
keeps its element ids out of the page's own id space.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

# The grader's reward range is [-0.5, 1.0] (safety violation .. correct); bins of 0.1
# centred on the tenths, so the base rewards -0.5, 0, 0.5 and 1 each fall mid-bin.
BIN_EDGES = [round(-0.55 + 0.1 * i, 2) for i in range(17)]
_COLOR = "#3b6ea5"


# beautiful-soup-env is not on PyPI: the extra installs from a checkout (or matplotlib alone).
REPORT_INSTALL = "in a checkout, pip install -e '.[report]' (or: pip install matplotlib)"


class PlotUnavailableError(ValueError):
    """matplotlib is not installed (it is the ``report`` extra)."""


def _figure_class() -> type[Figure]:
    try:
        from matplotlib.figure import Figure
    except ModuleNotFoundError as error:
        raise PlotUnavailableError(
            "the HTML report draws its histograms with matplotlib, which is not installed: "
            f"{REPORT_INSTALL}"
        ) from error
    return Figure


def _svg_data_uri(figure: Figure) -> str:
    from matplotlib import rc_context

    buffer = io.BytesIO()
    # Fixed salt and no date: the same rewards give the same bytes. Text stays text (smaller).
    with rc_context({"svg.hashsalt": "bs4-env-report", "svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _integer_locator() -> MaxNLocator:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def reward_histogram(rewards: Sequence[float], title: str) -> str:
    """One histogram of ``rewards`` over the reward range, as an SVG data URI."""
    figure = _figure_class()(figsize=(6.0, 2.8), layout="constrained")
    axes = figure.add_subplot()
    axes.hist(list(rewards), bins=BIN_EDGES, color=_COLOR, edgecolor="white")
    axes.set_title(title, fontsize=11)
    axes.set_xlabel("reward")
    axes.set_ylabel("rollouts")
    axes.set_xticks([-0.5, 0.0, 0.5, 1.0])
    axes.yaxis.set_major_locator(_integer_locator())
    return _svg_data_uri(figure)


def grouped_histograms(groups: Mapping[str, Sequence[float]], title: str) -> str:
    """Small multiples: one reward histogram per group (same bins and y scale), as an SVG URI."""
    names = sorted(groups)
    columns = min(4, max(1, len(names)))
    rows = -(-len(names) // columns) if names else 1
    figure = _figure_class()(figsize=(2.6 * columns, 2.1 * rows + 0.4), layout="constrained")
    figure.suptitle(title, fontsize=11)
    grid = figure.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    for index, axes in enumerate(grid.flat):
        if index >= len(names):
            axes.set_visible(False)
            continue
        name = names[index]
        axes.hist(list(groups[name]), bins=BIN_EDGES, color=_COLOR, edgecolor="white")
        axes.set_title(f"{name} (n={len(groups[name])})", fontsize=9)
        axes.set_xticks([-0.5, 0.0, 0.5, 1.0])
        axes.yaxis.set_major_locator(_integer_locator())
    return _svg_data_uri(figure)
