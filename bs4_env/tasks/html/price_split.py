"""Prices split across inline tags the way shop templates split them.

The currency sign sits in its own span, the cents in a ``<sup>`` or span, a ``<wbr>`` marks
where a long number may break, and thousands or the currency are separated by ``&nbsp;`` or
a narrow no-break space. A browser shows one unbroken price ("1,249.00" or "1 249,00 €");
``get_text(" ")`` puts a space at every tag boundary. One style per page, so the format
never tells the featured price from a decoy.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random


@dataclass(frozen=True)
class Style:
    """One currency convention: sign placement and separators."""

    sign: str
    suffix: bool  # "1 249,00 €" rather than "€1,249.00"
    thousands: str  # as displayed; written in the HTML as ``thousands_html``
    thousands_html: str
    decimal: str


_STYLES = (
    Style("$", False, ",", ",", "."),
    Style("£", False, ",", ",", "."),
    Style("€", True, " ", "&#8239;", ","),
    Style("€", True, ".", ".", ","),
    Style("CHF", False, "’", "&rsquo;", "."),
)


def style(rng: Random) -> Style:
    return rng.choice(_STYLES)


def cents(rng: Random) -> int:
    """An amount in cents; about half of them need a thousands separator."""
    return rng.randint(100_000, 499_999) if rng.random() < 0.5 else rng.randint(500, 99_999)


def _group(units: int, sep: str) -> str:
    return f"{units:,}".replace(",", sep)


def displayed(st: Style, amount: int) -> str:
    """The price as a browser shows it (no-break spaces written as plain spaces)."""
    number = f"{_group(amount // 100, st.thousands)}{st.decimal}{amount % 100:02d}"
    if st.suffix:
        return f"{number} {st.sign}"
    return f"{st.sign} {number}" if st.sign == "CHF" else f"{st.sign}{number}"


def markup(rng: Random, st: Style, amount: int) -> str:
    """Inline HTML showing ``displayed(st, amount)``, split at one or more tag boundaries."""
    units, cent = amount // 100, f"{amount % 100:02d}"
    number = _group(units, st.thousands_html)
    if units >= 1000 and rng.random() < 0.5:  # a line-break hint inside the number
        head, _, tail = number.rpartition(st.thousands_html)
        number = f"{head}{st.thousands_html}<wbr>{tail}"
    kind = rng.randrange(3)
    if kind == 0:
        figures = f"{number}<sup>{st.decimal}{cent}</sup>"
    elif kind == 1:
        figures = (
            f'<span class="int">{number}</span><span class="dec">{st.decimal}</span>'
            f'<span class="cents">{cent}</span>'
        )
    else:
        figures = f'{number}{st.decimal}<span class="cents">{cent}</span>'
    sign = f'<span class="currency">{st.sign}</span>'
    if st.suffix:
        return f"{figures}&nbsp;{sign}"
    return f"{sign}&nbsp;{figures}" if st.sign == "CHF" else f"{sign}{figures}"
