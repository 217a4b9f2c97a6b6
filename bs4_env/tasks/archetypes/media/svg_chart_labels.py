"""Category and value labels of one inline SVG bar chart, as an object.

Skill: finding the ``<svg>`` by its title or caption, telling its text groups apart by
structure (value labels above the bars, category labels under them, y-axis ticks,
legend), pairing them bar by bar, and reading a label drawn on two lines as
``get_text(" ")`` does (``get_text()`` glues the two ``<tspan>`` lines together).
Shortcuts resisted: a second chart with another caption shares the markup; "every
``<text>`` of the svg" also yields y-axis ticks and the legend; group classes vary per
seed (``x-axis``, ``xAxis``, ``tick-labels``...); the group order inside the svg varies;
two-word categories are split into tspans on most seeds.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools, svg_charts
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    title, other = pools.unique(rng, svg_charts.caption, 2)
    chart, heights = svg_charts.draw_chart(rng, title)
    decoy, decoy_heights = svg_charts.draw_chart(rng, other)
    blocks = [
        svg_charts.chart_svg(rng, chart, heights),
        svg_charts.chart_svg(rng, decoy, decoy_heights),
    ]
    rng.shuffle(blocks)
    blocks.insert(rng.randint(0, 2), f"<p>{escape(pools.sentence(rng, rng.randint(12, 20)))}</p>")
    topic = title.split(",")[0]
    html = wrap_page(
        rng,
        title=f"{topic} report",
        main_html=f'<article class="report"><h1>{escape(topic)}</h1>{"".join(blocks)}</article>',
        difficulty=ARCHETYPE.difficulty,
    )
    query = (
        f'From the SVG bar chart titled "{title}", return an object mapping each bar\'s category '
        "label (the text under the bar) to its value label (the text above the bar), as "
        "displayed. A label drawn on two lines (two <tspan> elements) reads as its lines joined "
        "by one space."
    )
    truth = dict(zip(chart.categories, chart.values, strict=True))
    return Generated(html=html, query=query, query_template="svg_chart_labels", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="svg_chart_labels",
    category=Category.MEDIA,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Category -> value labels of one SVG bar chart; tspans, ticks, a decoy chart.",
    answer_schema=(
        "an object mapping category label to value label, both strings as displayed, e.g. "
        '{"North America": "1,204", "Oslo": "977"}'
    ),
    generate=generate,
)
