"""A price or phone number set in a custom web font, with plain or scrambled digits.

Sites style prices and phone numbers with their own ``@font-face`` fonts all the time
(tabular or brand digits); some anti-scraping setups instead serve a font whose glyph map
is private: the HTML holds private-use code points (U+E000-U+F8FF, as raw characters or
``&#x...;`` references) that only the font draws as digits, so the text read from the HTML
is not the number a reader sees. Both use the same markup here (an element with an id, a
font family named in a ``<style>`` rule or inline, a ``.woff2`` URL, an icon-font glyph
beside it), so only the characters inside the element tell them apart.

Used by ``font_obfuscation`` (scrambled digits) and its solvable twin ``custom_font_value``
(plain digits), half ``featured_price`` and half ``contact_phone`` requests each.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.html import listing
from bs4_env.tasks.html.icon_fonts import font_face
from bs4_env.tasks.rng import token

PRIVATE_USE = range(0xE000, 0xF900)
"""The Basic Multilingual Plane's private-use area, where glyph-map fonts put their digits."""

_FAMILY_PREFIXES = ("num", "digits", "pf", "brand", "display", "tabular")
_PRICE_CLASSES = ("price current", "current price", "price price--sale current")
_ICONS = {"price": ("tag", "sale", "coin"), "phone": ("phone", "call", "headset")}


@dataclass(frozen=True)
class FontValue:
    """The value element, its font's ``<style>``, and what identifies the font setup."""

    element: str
    style: str
    tokens: tuple[str, ...]


def glyph_map(rng: Random) -> dict[str, str]:
    """Digits to ten distinct private-use characters at a random place in the area.

    A scrambled value draws one per character (``_scrambled`` draws it without building it;
    tests/test_rng_draws.py holds the two equal)."""
    start = rng.randrange(PRIVATE_USE.start, PRIVATE_USE.stop - 64)
    offsets = rng.sample(range(64), 10)
    return {str(d): chr(start + offset) for d, offset in enumerate(offsets)}


# ``glyph_map``'s draws, written out for ``_scrambled`` (one map per character): the start
# as ``randrange`` draws it, then ``sample(range(64), 10)`` as ``Random.sample`` draws it
# for so small a population (its pool method), each draw as ``Random._randbelow`` does.
_START_WIDTH = PRIVATE_USE.stop - 64 - PRIVATE_USE.start
_START_BITS = _START_WIDTH.bit_length()
_SAMPLE_DRAWS = tuple((64 - i, (64 - i).bit_length()) for i in range(10))
_DIGITS = {str(d): d for d in range(10)}


def _scrambled(rng: Random, text: str) -> str:
    """``text`` with each digit replaced through a fresh ``glyph_map`` per character, as
    ``"".join(glyph_map(rng).get(ch, ch) for ch in text)``: the same draws, the same text,
    without building ten-entry maps that are read once. Of each map only the digit's offset
    is kept: ``sample``'s pool, where each draw's place takes the last free value, is
    tracked as the few places moved before the digit's draw."""
    getrandbits = rng.getrandbits
    shown = []
    for ch in text:
        start = getrandbits(_START_BITS)
        while start >= _START_WIDTH:
            start = getrandbits(_START_BITS)
        digit = _DIGITS.get(ch, -1)
        moved: dict[int, int] = {}
        offset = 0
        for i, (n, bits) in enumerate(_SAMPLE_DRAWS):
            j = getrandbits(bits)
            while j >= n:
                j = getrandbits(bits)
            if i < digit:
                moved[j] = moved.get(n - 1, n - 1)
            elif i == digit:
                offset = moved.get(j, j)
        shown.append(ch if digit < 0 else chr(PRIVATE_USE.start + start + offset))
    return "".join(shown)


def _references(markup: str) -> str:
    """Private-use characters written as hexadecimal character references, as some sites do."""
    return "".join(f"&#x{ord(ch):x};" if ord(ch) in PRIVATE_USE else ch for ch in markup)


def _inner(rng: Random, subject: str, text: str) -> str:
    return listing.price_markup(rng, text) if subject == "price" else escape(text)


def font_value(rng: Random, subject: str, text: str, scrambled: bool) -> FontValue:
    """``text`` (a price or phone) in an element set in a custom font.

    ``scrambled`` replaces its digits by private-use glyphs that only the font maps back.
    """
    family = f"{rng.choice(_FAMILY_PREFIXES)}-{token(rng, 6)}"
    element_id = f"{subject}-{token(rng, 7)}"
    shown = _scrambled(rng, text) if scrambled else text
    inner = _inner(rng, subject, shown)
    # A site writes its glyphs one way, raw or as references: the value's and the icon's.
    raw = rng.random() < 0.5
    if scrambled and not raw:
        inner = _references(inner)
    klass = rng.choice(_PRICE_CLASSES) if subject == "price" else "phone"
    face = font_face(family)
    if rng.random() < 0.5:
        rule_class = f"ff-{token(rng, 5)}"
        style = f"<style>{face}.{rule_class}{{font-family:'{family}',sans-serif;}}</style>"
        element = f'<span id="{element_id}" class="{klass} {rule_class}">{inner}</span>'
    else:
        style = f"<style>{face}</style>"
        element = (
            f'<span id="{element_id}" class="{klass}" '
            f"style=\"font-family:'{family}',sans-serif\">{inner}</span>"
        )
    # Always icon glyphs beside it, three in a row as the scrambled digits are, written
    # like the value: private-use characters, raw or referenced, in a run, then mark every
    # such page, scrambled or not, not only the scrambled ones.
    glyphs = "".join(chr(0xE000 + rng.randrange(256)) for _ in range(3))
    icon = (
        f'<i class="icon icon-{rng.choice(_ICONS[subject])}" aria-hidden="true">'
        f"{glyphs if raw else _references(glyphs)}</i> "
    )
    element = icon + element
    return FontValue(element=element, style=style, tokens=(element_id, family))


TEMPLATES = ("featured_price", "contact_phone")
