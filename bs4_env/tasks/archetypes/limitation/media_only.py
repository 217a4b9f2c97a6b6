"""The requested fact (a temperature, a version, a code, a date) is only said in a recording.

Skill: scoping the search to the recording the request names (its ``<h1>`` and article),
reading every static place that could state the fact (the "About" paragraph, the show
notes, the transcript or chapters) and, finding it nowhere, abstaining with the player
(its id or media URL) as evidence instead of answering a look-alike value.
Shortcuts resisted: the request is word-for-word the solvable ``media_fact`` request of
``video_transcript`` and ``media_show_notes`` (same titles, facts and page parts), so "a
``<video>``/``<audio>`` means abstain" scores 0 there; the page states values of the
same shape about other things (the water temperature beside an oven temperature, an
expired code, the recording date), the recording's other fact, and teasers of other
recordings stating the same kind of fact, so "the first temperature/date/code on the
page" answers wrongly; a show-notes line and a chapter title name the subject without a
value ("Oven temperature: given in the video").
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import media_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, LimitReason


def generate(rng: Random) -> Generated:
    page = media_pages.media_page(rng, "recording")
    return twin_pages.generated(page, LimitReason.MEDIA_ONLY)


ARCHETYPE = ArchetypeSpec(
    id="media_only",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=6,
    phase="phase2",
    description="The requested fact is only said in a video or audio; look-alike values nearby.",
    answer_schema=queries.MEDIA_FACT_SCHEMA,
    generate=generate,
)
