"""A fact said in a recording that its show notes also state ("Oven: 220 °C").

Skill: finding the recording the request names and reading the fact from its show-notes
list, where it sits among lines with values of the same shape ("Water: 35 °C",
"Expired: MAPLE10"), while the transcript excerpt or the chapters only name the subject.
Shortcuts resisted: this is a solvable twin of ``media_only`` (same request, titles,
facts, player markup and page parts), so "a ``<video>``/``<audio>`` means abstain" scores
0, and so does "no full transcript means abstain"; decoy note lines, the other fact of the
recording, the byline date and teasers of other recordings stating the same kind of fact
defeat "the first value of that shape".
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import media_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    return twin_pages.generated(media_pages.media_page(rng, "notes"), None)


ARCHETYPE = ArchetypeSpec(
    id="media_show_notes",
    category=Category.MEDIA,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=6,
    phase="phase2",
    description="A fact said in a video or episode, read from its show notes among decoys.",
    answer_schema=queries.MEDIA_FACT_SCHEMA,
    generate=generate,
    solution_of="media_only",
)
