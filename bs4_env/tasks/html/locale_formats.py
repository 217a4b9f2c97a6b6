"""Dates and numbers written the way each page language writes them, for ``locale``.

One page uses one language (``wrap_page(lang=...)`` localises the chrome too) and one
date style. Numbers use that language's separators: ``1.234,56`` (de, es), ``1 234,56``
with a narrow no-break space (fr), ``1,234.56`` (en); typographic minus signs (U+2212)
appear in de and fr, so ``float()`` after stripping spaces still fails without care.
"""

from __future__ import annotations

from random import Random
from types import MappingProxyType

MONTHS = MappingProxyType(
    {
        "en": (
            *("January", "February", "March", "April", "May", "June", "July", "August"),
            *("September", "October", "November", "December"),
        ),
        "de": (
            *("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August"),
            *("September", "Oktober", "November", "Dezember"),
        ),
        "fr": (
            *("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août"),
            *("septembre", "octobre", "novembre", "décembre"),
        ),
        "es": (
            *("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto"),
            *("septiembre", "octubre", "noviembre", "diciembre"),
        ),
    }
)
LANGUAGE_NAMES = MappingProxyType(
    {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "ja": "Japanese"}
)
DATE_STYLES = MappingProxyType(
    {
        "en": ("long_us", "long_uk", "short_us"),
        "de": ("long_de", "dotted"),
        "fr": ("long_fr", "slashed"),
        "es": ("long_es", "slashed"),
        "ja": ("kanji",),
    }
)
DATE_RULES = MappingProxyType(
    {
        "long_us": 'month name, day, year (e.g. "January 31, 2024")',
        "long_uk": 'day, month name, year (e.g. "31 January 2024")',
        "short_us": 'abbreviated month, day, year (e.g. "Jan 31, 2024")',
        "long_de": 'day, German month name, year (e.g. "31. Januar 2024")',
        "dotted": 'day.month.year (e.g. "31.01.2024")',
        "long_fr": 'day, French month name, year (e.g. "31 janvier 2024", "1er mars 2024")',
        "long_es": 'day "de" Spanish month name "de" year (e.g. "31 de enero de 2024")',
        "slashed": 'day/month/year, day first (e.g. "31/01/2024")',
        "kanji": 'year年month月day日 (e.g. "2024年1月31日")',
    }
)


def format_date(style: str, year: int, month: int, day: int) -> str:
    """``year-month-day`` written in ``style`` (one of ``DATE_RULES``)."""
    if style == "long_us":
        return f"{MONTHS['en'][month - 1]} {day}, {year}"
    if style == "long_uk":
        return f"{day} {MONTHS['en'][month - 1]} {year}"
    if style == "short_us":
        return f"{MONTHS['en'][month - 1][:3]} {day}, {year}"
    if style == "long_de":
        return f"{day}. {MONTHS['de'][month - 1]} {year}"
    if style == "dotted":
        return f"{day:02d}.{month:02d}.{year}"
    if style == "long_fr":
        return f"{'1er' if day == 1 else day} {MONTHS['fr'][month - 1]} {year}"
    if style == "long_es":
        return f"{day} de {MONTHS['es'][month - 1]} de {year}"
    if style == "slashed":
        return f"{day:02d}/{month:02d}/{year}"
    if style == "kanji":
        return f"{year}年{month}月{day}日"
    raise ValueError(f"unknown date style {style!r}")


def draw_date(rng: Random, year: int) -> tuple[int, int, int]:
    """A date of ``year``; day 1 comes up often (French writes it "1er")."""
    day = 1 if rng.random() < 0.15 else rng.randint(2, 28)
    return year, rng.randint(1, 12), day


NUMBER_RULES = MappingProxyType(
    {
        "de": '"." groups thousands and "," marks decimals (e.g. "1.234,56")',
        "es": '"." groups thousands and "," marks decimals (e.g. "1.234,56")',
        "fr": 'a narrow space groups thousands and "," marks decimals (e.g. "1 234,56")',
        "en": '"," groups thousands and "." marks decimals (e.g. "1,234.56")',
    }
)
_GROUP = MappingProxyType({"de": ".", "es": ".", "fr": "\u202f", "en": ","})
_DECIMAL = MappingProxyType({"de": ",", "es": ",", "fr": ",", "en": "."})


def format_amount(lang: str, cents: int, rng: Random) -> str:
    """Signed ``cents`` written with ``lang``'s separators (a typographic minus in de/fr)."""
    whole, frac = divmod(abs(cents), 100)
    digits = f"{whole:,}".replace(",", _GROUP[lang])
    if lang == "fr" and rng.random() < 0.4:
        digits = digits.replace("\u202f", "\u00a0")  # older sites group with a plain NBSP
    text = f"{digits}{_DECIMAL[lang]}{frac:02d}"
    if cents < 0:
        minus = "\u2212" if lang in ("de", "fr") and rng.random() < 0.7 else "-"
        text = minus + text
    return text


def plain_amount(cents: int) -> str:
    """``cents`` as the requests want totals: ``-1234.56`` (no grouping, "." decimals)."""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}{whole}.{frac:02d}"
