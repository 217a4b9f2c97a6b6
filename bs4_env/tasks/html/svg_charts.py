"""Inline SVG bar charts as chart libraries emit them, for the ``media`` archetypes.

A chart is an ``<svg>`` in a ``<figure>``: bars (``<rect>``), a value label above each
bar, a category label under it (two-word categories sometimes drawn on two lines as two
``<tspan>`` elements, which ``get_text()`` glues together), y-axis tick labels, and
sometimes a legend. Group classes vary by library, so a solution must read the structure
rather than rely on one class name.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import token

_REGIONS = (
    "North America", "South America", "Western Europe", "Eastern Europe", "East Asia",
    "South Asia", "Middle East", "West Africa", "East Africa", "Oceania", "Nordics",
    "Central Europe", "Southern Europe", "Central Asia",
)  # fmt: skip
_METRICS = ("Orders", "Returns", "Visitors", "Sign-ups", "Revenue", "Tickets", "Downloads")
_X_CLASSES = ("x-axis", "axis axis--x", "xAxis", "tick-labels")
_V_CLASSES = ("values", "bar-labels", "labels", "data-labels")


@dataclass(frozen=True)
class Chart:
    caption: str
    categories: tuple[str, ...]
    values: tuple[str, ...]
    """The value labels as displayed above the bars."""


def caption(rng: Random) -> str:
    period = rng.choice(("Q1", "Q2", "Q3", "Q4", "H1", "H2", *pools.MONTHS))
    by = rng.choice(("region", "store", "market"))
    return f"{rng.choice(_METRICS)} by {by}, {period} {rng.randint(2019, 2026)}"


def _value(rng: Random, style: int) -> tuple[int, str]:
    amount = rng.randint(40, 9800)
    if style == 0:
        return amount, f"{amount:,}"
    if style == 1:
        return amount, f"{amount / 100:.1f}%"
    return amount, f"${amount / 100:.1f}k"


def draw_chart(rng: Random, title: str) -> tuple[Chart, list[int]]:
    """A chart's labels and the bar heights they stand for."""
    n = rng.randint(3, 7)
    regions = rng.randint(1, min(n, 4))  # two-word names, often drawn on two lines
    categories = (*rng.sample(_REGIONS, regions), *rng.sample(pools.CITIES, n - regions))
    categories = tuple(rng.sample(categories, n))
    style = rng.randrange(3)
    drawn = [_value(rng, style) for _ in range(n)]
    return Chart(title, categories, tuple(v for _, v in drawn)), [a for a, _ in drawn]


def _label(rng: Random, text: str, x: int, y: int) -> str:
    words = text.split(" ")
    if len(words) == 2 and rng.random() < 0.8:
        return (
            f'<text x="{x}" y="{y}" text-anchor="middle"><tspan x="{x}" dy="0">{escape(words[0])}'
            f'</tspan><tspan x="{x}" dy="1.1em">{escape(words[1])}</tspan></text>'
        )
    return f'<text x="{x}" y="{y}" text-anchor="middle">{escape(text)}</text>'


def chart_svg(rng: Random, chart: Chart, heights: list[int]) -> str:
    """The ``<figure>`` holding the chart, titled by a figcaption or a heading above it."""
    top = max(heights)
    width, base, step = 80 * len(heights) + 60, 220, 80
    bars, values, labels = [], [], []
    for i, (amount, shown) in enumerate(zip(heights, chart.values, strict=True)):
        h = max(4, round(180 * amount / top))
        x = 60 + i * step
        bars.append(f'<rect class="bar" x="{x}" y="{base - h}" width="50" height="{h}"></rect>')
        values.append(f'<text x="{x + 25}" y="{base - h - 6}" text-anchor="middle">{shown}</text>')
        labels.append(_label(rng, chart.categories[i], x + 25, base + 16))
    ticks = "".join(
        f'<text x="50" y="{base - k * 45}" text-anchor="end">{round(top * k / 4):,}</text>'
        for k in range(5)
    )
    groups = [
        f'<g class="y-axis">{ticks}</g>',
        f'<g class="bars">{"".join(bars)}</g>',
        f'<g class="{rng.choice(_V_CLASSES)}">{"".join(values)}</g>',
        f'<g class="{rng.choice(_X_CLASSES)}">{"".join(labels)}</g>',
    ]
    rng.shuffle(groups)
    if rng.random() < 0.5:
        groups.append(
            f'<g class="legend"><rect x="{width - 120}" y="8" width="10" height="10"></rect>'
            f'<text x="{width - 104}" y="17">{escape(chart.caption.split(" by ")[0])}</text></g>'
        )
    title_id = f"t-{token(rng, 6)}"
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} 260" role="img" '
        f'aria-labelledby="{title_id}"><title id="{title_id}">{escape(chart.caption)}</title>'
        f"{''.join(groups)}</svg>"
    )
    if rng.random() < 0.5:
        return (
            f'<figure class="chart">{svg}<figcaption>{escape(chart.caption)}</figcaption></figure>'
        )
    return (
        f'<section class="chart-block"><h3>{escape(chart.caption)}</h3>'
        f'<figure class="chart">{svg}</figure></section>'
    )
