"""Dates written the page language's way, converted to ISO 8601.

Skill: scoping to the listing under a named heading and parsing locale dates by hand
(a month-name table for the language, ``1er`` for the first of the month in French, day
before month in ``31.01.2024`` and ``31/01/2024``, ``2024年1月31日``) into ``YYYY-MM-DD``.
Shortcuts resisted: the request states the page's date format in words, but
``datetime.strptime`` with an English locale cannot read German, French or Spanish month
names; reading a day-first numeric date (``31.01.2024``, ``03/04/2024``) month-first
fails when the day exceeds 12 and silently swaps day and month otherwise; the section
holds an "updated" note with another date; other sections list other dates in the same
format; each page is in one language (``<html lang>`` and localised chrome).
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import locale_formats as lf
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_HEADINGS = {
    "en": ("Workshops in {}", "Tastings in {}", "Talks in {}", "Repair cafés in {}"),
    "de": ("Workshops in {}", "Verkostungen in {}", "Vorträge in {}", "Reparatur-Cafés in {}"),
    "fr": ("Ateliers à {}", "Dégustations à {}", "Conférences à {}", "Repair cafés à {}"),
    "es": ("Talleres en {}", "Catas en {}", "Charlas en {}", "Cafés de reparación en {}"),
    "ja": ("{}のワークショップ", "{}の試飲会", "{}の講演", "{}のリペアカフェ"),
}
_UPDATED = {
    "en": "Updated",
    "de": "Stand",
    "fr": "Mis à jour le",
    "es": "Actualizado",
    "ja": "更新",
}


def _section(rng: Random, heading: str, lang: str, style: str, year: int) -> tuple[str, list[str]]:
    """A titled list of events and their ISO dates in page order."""
    dates = [lf.draw_date(rng, year + int(rng.random() < 0.15)) for _ in range(rng.randint(3, 6))]
    names = pools.unique(rng, pools.product_name, len(dates))
    as_table = rng.random() < 0.4
    rows = []
    for name, (y, m, d) in zip(names, dates, strict=True):
        shown = escape(lf.format_date(style, y, m, d))
        if as_table:
            rows.append(f'<tr><td>{escape(name)}</td><td class="when">{shown}</td></tr>')
        else:
            rows.append(
                f'<li><span class="event">{escape(name)}</span> · <span class="when">{shown}'
                "</span></li>"
            )
    body = f"<table>{''.join(rows)}</table>" if as_table else f"<ul>{''.join(rows)}</ul>"
    y, m, d = lf.draw_date(rng, year - 1)
    note = f'<p class="note">{_UPDATED[lang]} {escape(lf.format_date(style, y, m, d))}</p>'
    parts = [body, note] if rng.random() < 0.5 else [note, body]
    html = f'<section class="events"><h2>{escape(heading)}</h2>{"".join(parts)}</section>'
    return html, [f"{y:04d}-{m:02d}-{d:02d}" for y, m, d in dates]


def generate(rng: Random) -> Generated:
    lang = rng.choice(sorted(_HEADINGS))
    style = rng.choice(lf.DATE_STYLES[lang])
    year = rng.randint(2019, 2027)
    headings = pools.unique(
        rng, lambda r: r.choice(_HEADINGS[lang]).format(r.choice(pools.CITIES)), rng.randint(2, 3)
    )
    sections = [_section(rng, heading, lang, style, year) for heading in headings]
    truth = sections[0][1]
    blocks = [html for html, _ in sections]
    rng.shuffle(blocks)
    html = wrap_page(
        rng,
        title=headings[0],
        main_html="".join(blocks),
        difficulty=ARCHETYPE.difficulty,
        lang=lang,
    )
    query = (
        f"This page is in {lf.LANGUAGE_NAMES[lang]} and writes dates as {lf.DATE_RULES[style]}. "
        f'List the date of every event listed under the heading "{headings[0]}", in page '
        "order, as ISO dates (YYYY-MM-DD)."
    )
    return Generated(html=html, query=query, query_template="locale_dates_iso", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="locale_dates_iso",
    category=Category.LOCALE,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Event dates in one locale's format (de/fr/es/en/ja) under a heading, as ISO.",
    answer_schema='a list of strings, ISO dates in page order (e.g. ["2024-01-31", "2024-03-01"])',
    generate=generate,
)
