"""Pages of one recording (a recipe video, a conference talk, a podcast episode).

Shared by ``media_only`` and its solvable twins ``video_transcript`` and
``media_show_notes``, which ask the same ``media_fact`` request. Every page has the same
parts: a player (``<video>`` with sources and sometimes a captions ``<track>``, ``<audio>``,
or an embedded player ``<iframe>``), an "About" paragraph, show notes, a ``<details>`` of
timed cues (a transcript, a transcript excerpt or chapters, 5-9 cues) and teasers of
other recordings stating the same kind of fact. Where the requested fact is stated is the
only difference: in the transcript, in the show notes, or nowhere but the recording.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.html.media_articles import WHERE, more_media, recording_article
from bs4_env.tasks.html.media_shows import SHOWS, title_of
from bs4_env.tasks.html.twin_pages import TwinPage
from bs4_env.tasks.model import Difficulty, LimitReason


def media_page(rng: Random, where: str) -> TwinPage:
    """A recording's page stating the requested fact ``where`` (one of ``WHERE``)."""
    if where not in WHERE:
        raise ValueError(f"where must be one of {WHERE}, not {where!r}")
    kind = rng.choice(tuple(SHOWS))
    show = SHOWS[kind]
    title = title_of(rng, kind)
    recording = recording_article(rng, kind, title, where)
    phrase, fact, article = recording.phrase, recording.fact, recording.html
    html = wrap_page(
        rng,
        title=title,
        main_html=article + more_media(rng, kind, title, phrase),
        # One chrome level for every page of this request, so page size tells nothing.
        difficulty=Difficulty.MEDIUM,
        breadcrumbs=("Home", show.plural.capitalize()),
        # Every such page holds a recording in the main region: the chrome carries one
        # fewer harmless player, so solvable and limitation pages draw the same counts.
        limitation=LimitReason.MEDIA_ONLY,
    )
    query = queries.media_fact(show.medium, title, phrase)
    return TwinPage(html, query, fact.value, recording.tokens)
