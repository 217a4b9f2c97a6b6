"""The exact posting time of one comment, from its ``<time datetime>``, not its text.

Skill: finding the comment by its author, then the ``<time>`` that marks when it was
posted and reading its ``datetime`` attribute: the displayed text is relative ("3 days
ago", "vor 2 Stunden", "il y a 5 jours") and cannot be turned into a date.
Shortcuts resisted: edited comments carry a second ``<time>`` (the edit) that comes
*before* the posting time on some seeds; replies nested inside a comment have their own
authors and times; the ``title`` tooltip of the time shows a day-first, minute-precision
text that is not the datetime value; pages are in en, de, fr or es.
"""

from __future__ import annotations

from datetime import date, timedelta
from html import escape
from random import Random

from bs4_env.tasks.html import locale_formats as lf
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_AGO = {
    "en": ("{} days ago", "{} hours ago", "{} weeks ago"),
    "de": ("vor {} Tagen", "vor {} Stunden", "vor {} Wochen"),
    "fr": ("il y a {} jours", "il y a {} heures", "il y a {} semaines"),
    "es": ("hace {} días", "hace {} horas", "hace {} semanas"),
}
_EDITED = {"en": "edited", "de": "bearbeitet", "fr": "modifié", "es": "editado"}
_ZONES = ("Z", "+00:00", "+01:00", "+02:00", "-05:00", "+09:00")


def _stamp(rng: Random, day: date) -> tuple[str, str]:
    """A datetime value on ``day`` and the tooltip a site shows for it."""
    hh, mm, ss = rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
    value = f"{day.isoformat()}T{hh:02d}:{mm:02d}:{ss:02d}{rng.choice(_ZONES)}"
    return value, f"{day.day:02d}.{day.month:02d}.{day.year} {hh:02d}:{mm:02d}"


def _posted_day(rng: Random, year: int) -> date:
    return date(*lf.draw_date(rng, year))


def _time(rng: Random, lang: str, value: str, tip: str, css: str) -> str:
    ago = rng.choice(_AGO[lang]).format(rng.randint(2, 11))
    return f'<time class="{css}" datetime="{value}" title="{tip}">{escape(ago)}</time>'


def _comment(rng: Random, lang: str, author: str, posted: tuple[str, str], day: date) -> str:
    posted_html = _time(rng, lang, *posted, "posted")
    head = [f'<b class="author">{escape(author)}</b>', posted_html]
    if rng.random() < 0.5:
        later = day + timedelta(days=rng.randint(1, 40))  # an edit comes after the post
        edit = _time(rng, lang, *_stamp(rng, later), "edited")
        note = f'<span class="edit-note">({_EDITED[lang]} {edit})</span>'
        head.insert(rng.choice((1, 2)), note)
    body = f"<p>{escape(pools.sentence(rng, rng.randint(8, 16)))}</p>"
    return f'<article class="comment"><header>{" ".join(head)}</header>{body}</article>'


def generate(rng: Random) -> Generated:
    lang = rng.choice(sorted(_AGO))
    year = rng.randint(2019, 2026)
    authors = pools.unique(rng, pools.person_name, rng.randint(4, 7))
    days = [_posted_day(rng, year) for _ in authors]
    stamps = [_stamp(rng, day) for day in days]
    comments = [_comment(rng, lang, a, s, d) for a, s, d in zip(authors, stamps, days, strict=True)]
    # A reply nests a whole comment (its own author and time) inside another one.
    host = rng.randrange(1, len(comments))
    reply = comments.pop(0) if rng.random() < 0.3 else None
    if reply is not None:
        comments[host - 1] = comments[host - 1].replace(
            "</article>", f'<div class="replies">{reply}</div></article>', 1
        )
    rng.shuffle(comments)
    product = pools.product_name(rng)
    main = (
        f"<article><h1>{escape(product)}</h1><p>{escape(pools.sentence(rng, 20))}"
        f'</p></article><section class="comments">{"".join(comments)}</section>'
    )
    html = wrap_page(rng, title=product, main_html=main, difficulty=ARCHETYPE.difficulty, lang=lang)
    query = (
        f"When exactly did {authors[0]} post their comment? Answer with the machine-readable "
        "date-time of its posting time (not of an edit), exactly as written in the page."
    )
    return Generated(html=html, query=query, query_template="comment_timestamp", truth=stamps[0][0])


ARCHETYPE = ArchetypeSpec(
    id="comment_timestamp",
    category=Category.LOCALE,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="A comment's posting datetime attribute behind relative, localized text.",
    answer_schema='a string, the ISO 8601 date-time as written (e.g. "2024-01-31T14:05:09+01:00")',
    generate=generate,
)
