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

import numpy as np

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import TOKEN_ALPHABET, TOKEN_TRIPLES, between, token

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


# A flag's JSON value for each 12-bit draw: a boolean (bit 0) when bit 1 is set, else the
# integer of the upper ten bits; then the separator before the next flag.
_FLAG_VALUES = np.array(
    [
        f"{('true' if bits & 1 else 'false') if bits & 2 else bits >> 2}, "
        for bits in range(1 << 12)
    ],
    dtype=object,
)
# A rule's declaration block, closed.
_BLOCKS = np.array([f"{block}}}" for block in _DECLARATIONS], dtype=object)
# Names are built as arrays of code points (``TOKEN_ALPHABET``'s, by 5-bit value) and read
# as fixed-width strings: a name's character ``i`` is bits ``5 i`` to ``5 i + 4`` of its
# draw, as ``token`` reads them.
_CODES = np.array([ord(symbol) for symbol in TOKEN_ALPHABET], dtype=np.uint32)
_SIX = np.arange(0, 30, 5, dtype=np.uint32)  # the shifts of a name's first six characters
_FLAG_START = np.array([ord(c) for c in '"exp_'], dtype=np.uint32)
_FLAG_COLON = np.array([ord(c) for c in '": '], dtype=np.uint32)

# pools.WORDS titled and escaped once, in the same order, so ``rng.choice`` draws the same
# index as it would from pools.WORDS (a menu link costs no escaping at page build time).
_LINK_WORDS = tuple(escape(word.title()) for word in pools.WORDS)


def _amount(rng: Random, rank: int, which: int) -> int:
    low, high = _BULK_PER_RANK[rank][which]
    return between(rng, low, high) if high else 0


def _outputs(rng: Random, count: int) -> np.ndarray:
    """The generator's next ``count`` 32-bit outputs, in order, as one wide draw.

    ``Random.getrandbits(k)`` fills its result 32-bit word by word from the least
    significant end, one generator output a word, keeping the top ``k`` bits of an output
    when ``k < 32``: so ``getrandbits(32 * count)``, read as little-endian words, is the
    outputs in draw order, and any sequence of narrow draws is read off them (``getrandbits(6)``
    is an output's top 6 bits, ``getrandbits(35)`` one output with the top 3 bits of the
    next above it). Pages draw hundreds of CSS rules and config flags: drawn and read this
    way (numpy does the bit work and builds the names) they cost about a third less.
    """
    wide = rng.getrandbits(32 * count).to_bytes(4 * count, "little")
    return np.frombuffer(wide, dtype="<u4")


def _joined(heads: np.ndarray, tails: np.ndarray) -> str:
    """Each row of code points ``heads`` read as a string, followed by its ``tails`` string."""
    rows = np.empty((len(heads), 2), dtype=object)
    rows[:, 0] = heads.view(f"U{heads.shape[1]}").ravel()
    rows[:, 1] = tails
    return "".join(rows.ravel().tolist())


def inline_css(rng: Random, rank: int) -> str:
    rules = _amount(rng, rank, 0)
    if not rules:
        return ""
    # Per rule ``token(rng, 7)`` (``getrandbits(35)``: outputs 0 and 1) and the block's
    # ``getrandbits(6)`` (output 2); the name's last character is the draw's bits 30-34.
    outputs = _outputs(rng, 3 * rules).reshape(rules, 3)
    name = outputs[:, 0]
    heads = np.empty((rules, 9), dtype=np.uint32)  # ".", the name, "{"
    heads[:, 0], heads[:, 8] = ord("."), ord("{")
    heads[:, 1:7] = _CODES[(name[:, None] >> _SIX) & 31]
    heads[:, 7] = _CODES[(name >> 30) | (outputs[:, 1] >> 29) << 2]
    return f"<style>{_joined(heads, _BLOCKS[outputs[:, 2] >> 26])}</style>"


def config_script(rng: Random, rank: int, lang: str = "en") -> str:
    keys = _amount(rng, rank, 1)
    if not keys:
        return ""
    # The JSON json.dumps writes, built from the values' JSON text: flag names are token
    # characters (nothing to escape), values booleans or integers. Per flag a value
    # (``getrandbits(12)``: an output) and a name (``token(rng, 6)``: ``getrandbits(30)``,
    # the next). Gathered in a dict by name, as a dumped dict holds them: a name drawn
    # twice keeps its first place and its last value.
    outputs = _outputs(rng, 2 * keys).reshape(keys, 2)
    names, values = outputs[:, 1] >> 2, outputs[:, 0] >> 20
    flags = dict(zip(names.tolist(), values.tolist(), strict=True))
    if len(flags) < keys:  # a name drawn twice (rare: 30-bit names)
        names = np.fromiter(flags.keys(), dtype=np.uint32, count=len(flags))
        values = np.fromiter(flags.values(), dtype=np.uint32, count=len(flags))
    heads = np.empty((len(flags), 14), dtype=np.uint32)  # '"exp_', the name, '": '
    heads[:, :5], heads[:, 11:] = _FLAG_START, _FLAG_COLON
    heads[:, 5:11] = _CODES[(names[:, None] >> _SIX) & 31]
    body = _joined(heads, _FLAG_VALUES[values])[:-2]
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
        for _ in range(between(rng, 6, 12)):
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
    # Per symbol ``token(rng, 6)`` written out (the same ``getrandbits(30)``, read the same
    # way), then the path's ``getrandbits(6)``.
    getrandbits, triples, paths = rng.getrandbits, TOKEN_TRIPLES, _PATHS
    parts = []
    for _ in range(symbols):
        name = getrandbits(30)
        parts.append(
            f'<symbol id="i-{triples[name & 0x7FFF]}{triples[name >> 15]}" viewBox="0 0 24 24">'
            f'<path d="{paths[getrandbits(6)]}"/></symbol>'
        )
    body = "".join(parts)
    return f'<svg xmlns="http://www.w3.org/2000/svg" style="display:none">{body}</svg>\n'
