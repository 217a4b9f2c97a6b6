"""A table that only exists after client-side JavaScript runs.

Skill: recognising a JS-rendered placeholder (empty mount node, loader, ``<noscript>``,
a renderer script and a JSON endpoint) and abstaining with evidence instead of guessing.
Shortcuts resisted: the request is word-for-word the solvable ``table_as_dicts`` request;
the page holds a decoy static table with another caption, so "take the first table"
answers wrongly; the evidence must cite the seed-random mount id, endpoint or script.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import (
    ArchetypeSpec,
    Category,
    Difficulty,
    Generated,
    LimitationInfo,
    LimitReason,
)
from bs4_env.tasks.rng import token

_CAPTIONS = ("Pricing plans", "Shipping rates", "Store hours", "Team directory", "Release history")


def _static_table(rng: Random, caption: str) -> str:
    rows = "".join(
        f"<tr><td>{escape(pools.product_name(rng))}</td><td>{pools.price(rng)}</td></tr>"
        for _ in range(rng.randint(2, 4))
    )
    return (
        f'<h2>{escape(caption)}</h2><table class="data"><thead><tr><th>Item</th><th>Price</th>'
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )


def generate(rng: Random) -> Generated:
    caption, decoy_caption = rng.sample(_CAPTIONS, 2)
    caption = f"{caption} {rng.randint(2019, 2026)}"
    mount_id = f"grid-{token(rng, 7)}"
    endpoint = f"/api/tables/{token(rng, 10)}.json"
    script = f"/static/js/table-renderer.{token(rng, 8)}.js"
    placeholder = (
        f"<h2>{escape(caption)}</h2>"
        f'<div id="{mount_id}" class="data-table" data-endpoint="{endpoint}">'
        '<div class="spinner" aria-busy="true">Loading…</div></div>'
        "<noscript>Please enable JavaScript to view this table.</noscript>"
    )
    sections = [placeholder, _static_table(rng, decoy_caption)]
    rng.shuffle(sections)
    head = (
        f'<script src="{script}" defer></script>\n'
        f"<script>window.addEventListener('DOMContentLoaded',function(){{"
        f"renderTable(document.getElementById('{mount_id}'),'{endpoint}');}});</script>"
    )
    html = wrap_page(
        rng,
        title=caption,
        main_html="\n".join(sections),
        difficulty=ARCHETYPE.difficulty,
        extra_head=head,
    )
    query = queries.table_as_dicts(caption)
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        truth=None,
        limitation=LimitationInfo(
            reasons=(LimitReason.JS_RENDERED,),
            evidence_tokens=(mount_id, endpoint, script.rsplit("/", 1)[-1]),
        ),
    )


ARCHETYPE = ArchetypeSpec(
    id="js_rendered",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=1,
    description="The requested table is rendered client-side from a JSON endpoint.",
    answer_schema=queries.TABLE_DICTS_SCHEMA,
    generate=generate,
)
