"""Values drawn on a ``<canvas>`` from fetched data, with or without a static text copy.

A product's current price drawn by a script from a price endpoint, or a titled table shown
as a bar chart drawn from a chart endpoint. On a ``canvas_text`` page nothing else holds
the data (the canvas only carries a "loading" or "not supported" plea); on its solvable
twin ``canvas_fallback_content`` the same canvas, script and endpoint come with the data
as text: the canvas's fallback content (the price, or the data table inside
``<canvas>``), a visually hidden text beside it, or the chart's data table in a
``<details>`` or right under the chart. Half ``featured_price`` and half
``column_by_header`` requests each, with the shared layouts of ``slot_tables``.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import listing
from bs4_env.tasks.rng import token

TEMPLATES = ("featured_price", "column_by_header")
_PLEAS = ("", "Your browser does not support canvas.", "Loading…", "Loading price…")
_HIDDEN_CLASSES = ("sr-only", "visually-hidden")


def _price_script(rng: Random, canvas_id: str, endpoint: str) -> str:
    font = rng.choice(("600 28px Inter, sans-serif", "bold 26px system-ui", "700 30px Roboto"))
    return (
        "<script>(function(){"
        f"var c=document.getElementById('{canvas_id}');"
        f"fetch('{endpoint}',{{credentials:'same-origin'}})"
        ".then(function(r){return r.json();})"
        ".then(function(d){var ctx=c.getContext('2d');"
        f"ctx.font='{font}';ctx.fillStyle='#111';ctx.fillText(d.display,0,30);}});"
        "})();</script>"
    )


def _chart_script(chart_id: str, endpoint: str) -> str:
    return (
        "<script>(function(){"
        f"var c=document.getElementById('{chart_id}'),x=c.getContext('2d');"
        f"fetch('{endpoint}').then(function(r){{return r.json();}}).then(function(d){{"
        "d.rows.forEach(function(row,i){x.fillRect(40,i*28,row.value*2,20);"
        "x.fillText(row.label,0,i*28+14);});});})();</script>"
    )


def price_canvas(rng: Random, price: str | None) -> tuple[str, tuple[str, ...]]:
    """The price canvas; ``price`` (display text) goes into its fallback or a hidden text."""
    canvas_id = f"price-{token(rng, 8)}"
    endpoint = f"/api/price/{token(rng, 10)}"
    inside, beside = rng.choice(_PLEAS), ""
    # A visually hidden text sits beside the canvas as often on both kinds of page.
    if rng.random() < 0.4:
        said = escape(price) if price is not None else rng.choice(("Current price", "Price:"))
        beside = f'<span class="{rng.choice(_HIDDEN_CLASSES)}">{said}</span>'
    elif price is not None:
        inside = listing.price_markup(rng, price)
    canvas = (
        f'<canvas id="{canvas_id}" class="price-canvas" width="{rng.choice((160, 180, 200))}" '
        f'height="40" aria-label="Current price">{inside}</canvas>'
    )
    return canvas + beside + _price_script(rng, canvas_id, endpoint), (canvas_id, endpoint)


def chart_canvas(rng: Random, caption: str, table: str | None) -> tuple[str, tuple[str, ...]]:
    """A chart of the table; ``table`` goes inside the canvas, in a ``<details>`` or below."""
    chart_id = f"chart-{token(rng, 8)}"
    endpoint = f"/api/charts/{token(rng, 10)}.json"
    where = rng.choice(("inside", "inside", "details", "below"))
    inside = table if table is not None and where == "inside" else rng.choice(_PLEAS[:3])
    figure = (
        f'<figure class="chart"><canvas id="{chart_id}" width="{rng.choice((480, 560, 640))}" '
        f'height="{rng.choice((240, 280, 320))}" role="img" aria-label="{escape(caption)}">'
        f"{inside}</canvas><figcaption>{escape(caption)}</figcaption></figure>"
    )
    after = ""
    if where == "details":
        # A details box is as common under a chart without a data table.
        body = table if table is not None else "<p>Figures are updated every night.</p>"
        label = "Show the data" if table is not None else "About this chart"
        after = f'<details class="chart-data"><summary>{label}</summary>{body}</details>'
    elif where == "below" and table is not None:
        after = table
    return figure + _chart_script(chart_id, endpoint) + after, (chart_id, endpoint)
