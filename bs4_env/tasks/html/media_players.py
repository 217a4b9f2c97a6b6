"""A recording's player: ``<video>`` (sometimes with a captions ``<track>``), ``<audio>``, or
an embedded player ``<iframe>``.

Below the recording pages (``media_pages``, which wrap it in page chrome) and the chrome's
copies of a blocking recording (``blocker_copies``), which both draw it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.rng import token


@dataclass(frozen=True)
class Player:
    html: str
    tokens: tuple[str, ...]


def player(rng: Random, kind: str, title: str) -> Player:
    """The recording's player and what identifies it (its id, file and captions names)."""
    element_id = f"{rng.choice(('player', 'media', 'rec'))}-{token(rng, 7)}"
    clip = token(rng, 10)
    if kind == "embed":
        html = (
            f'<iframe id="{element_id}" src="https://player.example/embed/{clip}" '
            f'title="{escape(title)}" allow="autoplay; fullscreen" allowfullscreen '
            'loading="lazy"></iframe>'
        )
        return Player(html, (element_id, clip))
    if kind == "audio":
        html = (
            f'<audio id="{element_id}" controls preload="none"><source '
            f'src="/media/episodes/{clip}.mp3" type="audio/mpeg"></audio>'
        )
        return Player(html, (element_id, clip))
    track, tokens = "", [element_id, clip]
    if rng.random() < 0.5:
        captions = token(rng, 8)
        track = (
            f'<track kind="captions" src="/media/captions/{captions}.vtt" srclang="en" '
            'label="English">'
        )
        tokens.append(captions)
    html = (
        f'<video id="{element_id}" controls preload="metadata" poster="/img/posters/{clip}.jpg">'
        f'<source src="/media/{clip}.mp4" type="video/mp4">{track}</video>'
    )
    return Player(html, tuple(tokens))
