"""The fast caption-year pattern finds what the plain one finds.

``tables._CAPTION_YEAR`` looks for " 20" and then back for a qualifier, which scans a page
many times faster than ``\\b(?:Q1|...|October) (20[12][0-9])\\b``; the caption year a copy's
table takes (``tables.page_caption``) must not move, so both are run on the same texts:
captions as ``tables.captions`` draws them among other words, and seeded random strings of
the pieces where the two could part (qualifiers, years, word characters, a string's ends).
"""

from __future__ import annotations

import re
from random import Random

from bs4_env.tasks.html import tables

_PLAIN = re.compile(rf"\b(?:{'|'.join(tables._QUALIFIERS)}) (20[12][0-9])\b")
_PIECES = (
    *tables._QUALIFIERS, " ", "2020", "2031", "2019", " 2024", " 2026", "x", "_", "é", "-",
    "0", "9", "\n", "Z", "<td>", "Q", "week", "12", "Oct",
)  # fmt: skip


def _fast(text: str) -> list[str]:
    return ["20" + decade for decade in tables._CAPTION_YEAR.findall(text)]


def test_captions_among_words_give_the_plain_years() -> None:
    found = 0
    for seed in range(300):
        rng = Random(seed)
        words = [*tables.captions(rng, rng.randint(1, 4)), "Sales 2024", "in March 2023,", "x"]
        rng.shuffle(words)
        text = rng.choice((" ", "</h3><p>", "_", "")).join(words)
        assert _fast(text) == _PLAIN.findall(text), text
        found += len(_PLAIN.findall(text))
    assert found > 300


def test_random_strings_give_the_plain_years() -> None:
    rng = Random(38)
    found = 0
    for _ in range(20_000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 12)))
        assert _fast(text) == _PLAIN.findall(text), text
        found += len(_PLAIN.findall(text))
    assert found > 200
