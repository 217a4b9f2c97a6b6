"""Web-font pieces that icon fonts and glyph-scrambled digit fonts share.

Below ``widgets`` (harmless icon fonts), ``lookalikes`` (star ratings in an icon font) and
``glyph_fonts`` (values in private-use glyphs of a custom font), which all draw them.
"""

from __future__ import annotations

from random import Random


def font_face(family: str) -> str:
    """An ``@font-face`` rule as sites write one, for icon fonts and digit fonts alike."""
    return (
        f"@font-face{{font-family:'{family}';src:url('/fonts/{family}.woff2') format('woff2'),"
        f"url('/fonts/{family}.woff') format('woff');font-display:block;}}"
    )


def icon_glyphs(rng: Random, count: int) -> str:
    """``count`` private-use icon glyphs, as raw characters or as references (sites write
    both), so neither form is only on pages whose digits are scrambled."""
    points = [0xE000 + rng.randrange(256) for _ in range(count)]
    if rng.random() < 0.5:
        return "".join(map(chr, points))
    return "".join(f"&#x{point:04x};" for point in points)
