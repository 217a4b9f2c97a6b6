"""Page bulk that real sites carry and extraction must wade through: inline critical CSS,
an application-config script, a hidden mega-menu and an inline SVG icon sprite.

It grows with difficulty, so page size grows with it: primer pages stay tiny, the hardest
pages weigh 50-150 KB like real storefronts and news pages. Every amount is a range, so
page size varies within a tier too.
"""

from __future__ import annotations

import json
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import TOKEN_ALPHABET, TOKEN_TRIPLES, token

# Per difficulty rank: (CSS rules, config keys, mega-menu groups, sprite symbols) ranges.
_BULK_PER_RANK: dict[int, tuple[tuple[int, int], ...]] = {
    0: ((0, 0), (0, 0), (0, 0), (0, 0)),
    1: ((20, 40), (10, 25), (0, 0), (0, 0)),
    2: ((100, 220), (50, 120), (4, 10), (0, 20)),
    3: ((300, 900), (150, 600), (10, 24), (20, 100)),
}
_PROPS = (
    "margin:0", "padding:0 8px", "display:flex", "color:#222", "font-size:14px",
    "line-height:1.4", "border:1px solid #ddd", "gap:12px", "align-items:center",
    "background:#fafafa", "position:relative", "z-index:10", "opacity:.9", "width:100%",
)  # fmt: skip
# 64 fixed declaration blocks and icon paths, so a rule or a symbol costs one random draw
# (pages stay cheap to build).
_DECLARATIONS = tuple(
    ";".join(_PROPS[(i * 5 + k * 3) % len(_PROPS)] for k in range(2 + i % 4)) for i in range(64)
)
_PATHS = tuple(
    "M"
    + " ".join(f"{(i * 7 + k * 13) % 24}.{(i + k) % 10} {(i * 3 + k * 5) % 24}" for k in range(12))
    + "Z"
    for i in range(64)
)


# A CSS rule's end for each (last name character, declaration block) pair: the character,
# then the block in braces.
_RULE_ENDS = tuple(
    f"{symbol}{{{declarations}}}" for symbol in TOKEN_ALPHABET for declarations in _DECLARATIONS
)

# A flag's JSON value for each 12-bit draw: a boolean (bit 0) when bit 1 is set, else the
# integer of the upper ten bits.
_FLAG_VALUES = tuple(
    ("true" if bits & 1 else "false") if bits & 2 else str(bits >> 2) for bits in range(1 << 12)
)

# pools.WORDS titled and escaped once, in the same order, so ``rng.choice`` draws the same
# index as it would from pools.WORDS (a menu link costs no escaping at page build time).
_LINK_WORDS = tuple(escape(word.title()) for word in pools.WORDS)


def _amount(rng: Random, rank: int, which: int) -> int:
    low, high = _BULK_PER_RANK[rank][which]
    return rng.randint(low, high) if high else 0


def inline_css(rng: Random, rank: int) -> str:
    rules = _amount(rng, rank, 0)
    if not rules:
        return ""
    # The hottest loop of page building (hundreds of rules a page): ``token(rng, 7)`` is
    # written out inline (the same ``getrandbits(35)`` draw read the same way, then the
    # block's draw), which halves its cost; the name's last character and the block are
    # one lookup (``_RULE_ENDS``), one f-string a rule (measured: concatenation, or one
    # wide draw for all rules, cost more).
    getrandbits = rng.getrandbits
    triples, ends = TOKEN_TRIPLES, _RULE_ENDS
    parts = []
    for _ in range(rules):
        bits = getrandbits(35)
        parts.append(
            f".{triples[bits & 0x7FFF]}{triples[(bits >> 15) & 0x7FFF]}"
            f"{ends[(bits >> 30) << 6 | getrandbits(6)]}"
        )
    return f"<style>{''.join(parts)}</style>"


def config_script(rng: Random, rank: int, lang: str = "en") -> str:
    keys = _amount(rng, rank, 1)
    if not keys:
        return ""
    # The JSON json.dumps writes, built from the values' JSON text: flag names are token
    # characters (nothing to escape), values booleans or integers. A dict still, so a
    # flag name drawn twice keeps its first place and its last value, as in a dumped dict.
    # Per flag a value (``getrandbits(12)``, its JSON text looked up in ``_FLAG_VALUES``)
    # and a name (``token(rng, 6)`` written out: the same ``getrandbits(30)``, read the same
    # way): about a fifth cheaper than building both per flag.
    getrandbits, triples, values = rng.getrandbits, TOKEN_TRIPLES, _FLAG_VALUES
    flags: dict[str, str] = {}
    for _ in range(keys):
        value = values[getrandbits(12)]
        name = getrandbits(30)
        flags[triples[name & 0x7FFF] + triples[name >> 15]] = value
    body = ", ".join([f'"exp_{name}": {value}' for name, value in flags.items()])
    config = f'{{"build": "{token(rng, 10)}", "locale": {json.dumps(lang)}, "flags": {{{body}}}}}'
    return f"<script>window.__APP_CONFIG__ = {config};</script>"


def mega_menu(rng: Random, rank: int) -> str:
    groups = _amount(rng, rank, 2)
    if not groups:
        return ""
    # Per link, ``token(rng, 6)`` and ``rng.choice(_LINK_WORDS)`` written out: the same
    # ``getrandbits(30)``, then ``Random._randbelow``'s draw (``getrandbits(k)`` until it is
    # in range), read the same way.
    getrandbits, triples = rng.getrandbits, TOKEN_TRIPLES
    words, n_words, k_words = _LINK_WORDS, len(_LINK_WORDS), len(_LINK_WORDS).bit_length()
    columns = []
    for _ in range(groups):
        heading = escape(rng.choice(pools.NOUNS))
        links = []
        for _ in range(rng.randint(6, 12)):
            slug = getrandbits(30)
            word = getrandbits(k_words)
            while word >= n_words:
                word = getrandbits(k_words)
            links.append(
                f'<li><a href="/c/{triples[slug & 0x7FFF]}{triples[slug >> 15]}">'
                f"{words[word]} {heading}s</a></li>"
            )
        columns.append(f'<div class="mega-col"><h4>{heading}s</h4><ul>{"".join(links)}</ul></div>')
    return f'<div class="mega-menu" hidden aria-hidden="true">{"".join(columns)}</div>'


def icon_sprite(rng: Random, rank: int) -> str:
    """An inline, hidden SVG sprite of icon symbols, as design systems ship them."""
    symbols = _amount(rng, rank, 3)
    if not symbols:
        return ""
    body = "".join(
        f'<symbol id="i-{token(rng, 6)}" viewBox="0 0 24 24"><path d="{_PATHS[rng.getrandbits(6)]}"'
        "/></symbol>"
        for _ in range(symbols)
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg" style="display:none">{body}</svg>\n'
