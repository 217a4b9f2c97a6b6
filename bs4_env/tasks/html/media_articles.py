"""The parts of a recording's page below the page chrome: its article (player, about,
notes, timed cues) and the "More" section of other recordings.

Below ``chrome`` so that both whole pages (``media_pages``) and the chrome's copies of a
recording (``blocker_copies``) build them without an import circle.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.html import media_facts, pools
from bs4_env.tasks.html.media_facts import Fact
from bs4_env.tasks.html.media_players import player
from bs4_env.tasks.html.media_shows import SHOWS, Show, title_of
from bs4_env.tasks.rng import between, sample, shuffle, token

WHERE = ("recording", "transcript", "notes")
"""Where a page states the requested fact: only in the recording, or also statically."""


def _cues(rng: Random, texts: list[str]) -> str:
    """Timed cues in increasing time order, as ``<p>`` or ``<li>`` elements."""
    seconds, items = between(rng, 0, 20), []
    as_list = rng.random() < 0.5
    for text in texts:
        stamp = f'<span class="ts">{seconds // 60:02d}:{seconds % 60:02d}</span> {escape(text)}'
        items.append(f"<li>{stamp}</li>" if as_list else f'<p class="cue">{stamp}</p>')
        seconds += between(rng, 15, 140)
    return f'<ol class="cues">{"".join(items)}</ol>' if as_list else "".join(items)


def _transcript(rng: Random, show: Show, statements: list[str], fact: Fact | None) -> str:
    """Filler lines around ``statements`` (and the fact's sentence when given), in 5-9 cues."""
    lines = list(statements) + ([fact.sentence] if fact else [])
    # The cue count does not depend on whether the fact is among them.
    filler = sample(rng, show.filler, rng.randint(6, 9) - len(lines))
    body = filler[1:]
    for line in lines:
        body.insert(rng.randint(0, len(body)), line)
    return _cues(rng, filler[:1] + body)


def _chapters(rng: Random, show: Show, fact: Fact) -> str:
    titles = sample(rng, show.chapters, rng.randint(4, min(8, len(show.chapters))))
    titles.insert(rng.randint(1, len(titles)), fact.chapter)
    return _cues(rng, titles)


def _notes(rng: Random, fact: Fact, other: Fact, where: str) -> str:
    lines = [other.note, *sample(rng, fact.decoy_notes, rng.randint(1, 2))]
    if where == "notes":
        lines.append(fact.note)
    elif rng.random() < 0.5:
        lines.append(fact.pointer)
    shuffle(rng, lines)
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    heading = rng.choice(("Show notes", "Notes", "In this recording", "Details"))
    return f'<section class="show-notes"><h2>{heading}</h2><ul>{items}</ul></section>'


def _details(rng: Random, show: Show, fact: Fact, other: Fact, where: str) -> str:
    """A transcript or an excerpt (holding the fact only ``where`` is "transcript"), and
    chapters on half the pages: every page has both kinds as often, wherever the fact is."""
    chapters = ""
    if rng.random() < 0.5:
        cues = _chapters(rng, show, fact)
        chapters = f'<details class="chapters"><summary>Chapters</summary>{cues}</details>'
    statements = sample(rng, fact.decoy_sentences, rng.randint(1, len(fact.decoy_sentences)))
    label = rng.choice(("Transcript", "Transcript excerpt", "Read along"))
    said = fact if where == "transcript" else None
    cues = _transcript(rng, show, [*statements, other.sentence], said)
    return f'<details class="transcript"><summary>{label}</summary>{cues}</details>{chapters}'


def _more(rng: Random, show: Show, kind: str, title: str, phrase: str) -> str:
    others = [t for t in pools.unique(rng, lambda r: title_of(r, kind), 4) if t != title][:3]
    items = "".join(
        f'<li><a href="/watch/{token(rng, 8)}">{escape(other)}</a>'
        f'<span class="teaser"> · {escape(media_facts.FACTS[phrase](rng).teaser)}</span></li>'
        for other in others[: rng.randint(2, 3)]
    )
    return f'<section class="more-media"><h2>More {show.plural}</h2><ul>{items}</ul></section>'


def recording_byline(rng: Random) -> str:
    """Who, how long, when: the line under a recording's title."""
    return (
        f'<p class="byline">{escape(pools.person_name(rng))} · {rng.randint(4, 58)}:'
        f"{rng.randint(0, 59):02d} · Published {media_facts.date_text(rng)}</p>"
    )


@dataclass(frozen=True)
class Recording:
    """A recording's article (title, byline, player, about, notes, details) and its fact."""

    html: str
    phrase: str
    fact: Fact
    tokens: tuple[str, ...]


def recording_article(rng: Random, kind: str, title: str, where: str) -> Recording:
    """The article of a recording of ``kind`` titled ``title``, stating a fact ``where``:
    what a recording's page holds, and the frame a copy of a player stands in."""
    show = SHOWS[kind]
    phrase, other_phrase = sample(rng, show.facts, 2)
    fact, other = media_facts.FACTS[phrase](rng), media_facts.FACTS[other_phrase](rng)
    shown = player(rng, rng.choice(show.players), title)
    about = " ".join([rng.choice(show.filler), pools.sentence(rng, rng.randint(8, 14))])
    parts = [
        f'<section class="about"><h2>About this {show.medium}</h2><p>{escape(about)}</p></section>',
        _notes(rng, fact, other, where),
        _details(rng, show, fact, other, where),
    ]
    shuffle(rng, parts)
    byline = recording_byline(rng)
    article = (
        f'<article class="{kind}-page" id="{kind}-{token(rng, 6)}"><h1>{escape(title)}</h1>'
        f'{byline}<div class="player">{shown.html}</div>{"".join(parts)}</article>'
    )
    return Recording(article, phrase, fact, shown.tokens)


def more_media(rng: Random, kind: str, title: str, phrase: str) -> str:
    """The "More talks" section after a recording's article."""
    return _more(rng, SHOWS[kind], kind, title, phrase)
