"""A fact said in a recording, read from the transcript printed under the player.

Skill: finding the recording the request names, opening its ``<details>`` transcript
(timed cues as ``<p>`` or ``<li>``, hidden until expanded but in the HTML) and picking the
one sentence that states the requested fact, e.g. "Preheat the oven to 220 °C", among
sentences with values of the same shape about other things.
Shortcuts resisted: this is a solvable twin of ``media_only`` (same request, titles,
facts, player markup and page parts), so "a ``<video>``/``<audio>`` means abstain" scores
0; decoy sentences state the water temperature, a resting time, an old release, an
expired code or the recording date; the notes state the recording's other fact; the
byline carries a date and teasers of other recordings state the same kind of fact, so
"the first value of that shape" answers wrongly.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import media_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    return twin_pages.generated(media_pages.media_page(rng, "transcript"), None)


ARCHETYPE = ArchetypeSpec(
    id="video_transcript",
    category=Category.MEDIA,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A fact said in a video or episode, read from its transcript among decoys.",
    answer_schema=queries.MEDIA_FACT_SCHEMA,
    generate=generate,
    solution_of="media_only",
)
