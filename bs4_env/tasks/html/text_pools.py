"""Content for the text-cleaning archetypes: ``<br>``-separated addresses, invisible characters.

Addresses are written the way CMS templates write them: lines separated by ``<br>`` in its
spellings (``<br>``, ``<br/>``, ``<br />``, ``<BR>``), often followed by a newline and
indentation, with some lines carrying inline tags (a postcode span). Invisible characters
(soft hyphens, zero-width spaces, word joiners, a BOM) and non-breaking or thin spaces are
spelled as named, decimal and hex references or as raw characters.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import articles, pools

COUNTRIES = (
    "France",
    "Germany",
    "Portugal",
    "Norway",
    "Japan",
    "Canada",
    "Ireland",
    "Poland",
    "Estonia",
    "Colombia",
    "Kenya",
    "Spain",
)
_EXTRA_LINES = ("Unit {n}", "Floor {n}", "Building {c}", "Suite {n}", "Gate {c}")
_BREAKS = ("<br>", "<br/>", "<br />", "<BR>")


def _postcode(rng: Random) -> str:
    if rng.random() < 0.7:
        return f"{rng.randint(1000, 99999)}"
    letters = "ABCDEFGHJKLMNPRSTUW"
    return f"{rng.choice(letters)}{rng.choice(letters)}{rng.randint(1, 20)} {rng.randint(1, 9)}" + (
        f"{rng.choice(letters)}{rng.choice(letters)}"
    )


def address_lines(rng: Random) -> list[tuple[str, str]]:
    """(html, displayed text) of each line of a postal address."""
    street = articles.street_address(rng)
    lines = [(escape(street), street)]
    if rng.random() < 0.5:
        extra = rng.choice(_EXTRA_LINES).format(n=rng.randint(2, 40), c=rng.choice("ABCDEFG"))
        lines.append((escape(extra), extra))
    postcode, city = _postcode(rng), rng.choice(pools.CITIES)
    city_html = (
        escape(city) if rng.random() < 0.6 else f'<span class="locality">{escape(city)}</span>'
    )
    if rng.random() < 0.85:
        lines.append(
            (f'<span class="postcode">{postcode}</span> {city_html}', f"{postcode} {city}")
        )
    else:
        lines.append((f"{postcode} {city_html}", f"{postcode} {city}"))
    country = rng.choice(COUNTRIES)
    if rng.random() < 0.3:
        lines.append((f'<span class="country-name">{country}</span>', country))
    else:
        lines.append((country, country))
    return lines


def br_join(rng: Random, lines: list[str]) -> str:
    """Line HTML joined by ``<br>`` spellings, with source newlines only after a break."""
    out = "\n    " if rng.random() < 0.5 else ""
    for index, line in enumerate(lines):
        out += line
        if index < len(lines) - 1 or rng.random() < 0.3:  # sometimes a trailing <br>
            out += rng.choice(_BREAKS) + rng.choice(("", "\n", "\n    "))
    return out + ("\n  " if rng.random() < 0.5 else "")


SOFT_HYPHENS = ("&shy;", "&#173;", "&#xAD;", "\u00ad")
ZERO_WIDTH = ("&#8203;", "&#x200B;", "&#x2060;", "&#8288;", "\u200b", "&#xFEFF;")
SPACES = ("&nbsp;", "&#160;", "&#8201;", "&thinsp;", "&#x202F;", "\u00a0")
INVISIBLE = "\u00ad\u200b\u2060\ufeff"
"""The invisible characters the references above produce (none is whitespace to Python)."""


def sprinkle_invisible(rng: Random, text: str) -> str:
    """HTML for ``text`` with invisible characters inside words and odd spaces between them.

    At least one soft hyphen or zero-width character is always added, so the raw text of
    the element never equals what a browser displays.
    """
    words = []
    for word in text.split(" "):
        letters = escape(word)
        if len(word) >= 5 and word.isalpha() and rng.random() < 0.6:
            at = rng.randint(2, len(word) - 2)
            letters = escape(word[:at]) + rng.choice(SOFT_HYPHENS + ZERO_WIDTH) + escape(word[at:])
        words.append(letters)
    html = ""
    for index, word in enumerate(words):
        if index:
            html += rng.choice(SPACES) if rng.random() < 0.5 else " "
        html += word
    if not any(mark in html for mark in SOFT_HYPHENS + ZERO_WIDTH):
        html = rng.choice(ZERO_WIDTH) + html if rng.random() < 0.5 else html + "&#8203;"
    return html
