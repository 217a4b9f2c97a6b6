"""Page bulk that real sites carry and extraction must wade through: inline critical CSS,
an application-config script and a hidden mega-menu. It grows with difficulty, so page
size grows with it (primer pages stay tiny)."""

from __future__ import annotations

import json
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import token

# (CSS rules, config keys, mega-menu groups) per difficulty rank.
_BULK_PER_RANK = {0: (0, 0, 0), 1: (25, 15, 0), 2: (110, 60, 6), 3: (280, 200, 14)}
_PROPS = (
    "margin:0", "padding:0 8px", "display:flex", "color:#222", "font-size:14px",
    "line-height:1.4", "border:1px solid #ddd", "gap:12px", "align-items:center",
    "background:#fafafa", "position:relative", "z-index:10", "opacity:.9", "width:100%",
)  # fmt: skip
# 64 fixed declaration blocks, so a rule costs one random draw (pages stay cheap to build).
_DECLARATIONS = tuple(
    ";".join(_PROPS[(i * 5 + k * 3) % len(_PROPS)] for k in range(2 + i % 4)) for i in range(64)
)


def inline_css(rng: Random, rank: int) -> str:
    rules = _BULK_PER_RANK[rank][0]
    if not rules:
        return ""
    body = "".join(f".{token(rng, 7)}{{{_DECLARATIONS[rng.getrandbits(6)]}}}" for _ in range(rules))
    return f"<style>{body}</style>"


def config_script(rng: Random, rank: int) -> str:
    keys = _BULK_PER_RANK[rank][1]
    if not keys:
        return ""
    flags: dict[str, object] = {}
    for _ in range(keys):
        bits = rng.getrandbits(12)
        flags[f"exp_{token(rng, 6)}"] = bool(bits & 1) if bits & 2 else bits >> 2
    config = {"build": token(rng, 10), "locale": "en-US", "flags": flags}
    return f"<script>window.__APP_CONFIG__ = {json.dumps(config)};</script>"


def mega_menu(rng: Random, rank: int) -> str:
    groups = _BULK_PER_RANK[rank][2]
    if not groups:
        return ""
    columns = []
    for _ in range(groups):
        heading = rng.choice(pools.NOUNS)
        links = "".join(
            f'<li><a href="/c/{token(rng, 6)}">{escape(rng.choice(pools.WORDS).title())} '
            f"{escape(heading)}s</a></li>"
            for _ in range(rng.randint(6, 12))
        )
        columns.append(f'<div class="mega-col"><h4>{escape(heading)}s</h4><ul>{links}</ul></div>')
    return f'<div class="mega-menu" hidden aria-hidden="true">{"".join(columns)}</div>'
