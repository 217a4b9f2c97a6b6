"""One file of one ``<video>``: a subtitles track for a language, or a source of a type.

Skill: finding the ``<video>`` by its caption and then the child ``<track>`` matching two
attributes at once (``kind="subtitles"`` *and* ``srclang``) or the ``<source>`` with a
given ``type``, and reading its ``src``.
Shortcuts resisted: each video has a ``captions`` track and a ``chapters`` track in the
requested language beside the subtitles (so matching ``srclang`` alone is wrong), track
``label``s are in the track's own language, a WebM and an MP4 source (and the poster)
sit side by side; the other videos of the page carry the same languages and types.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.html.metadata_pools import slug
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_LANGS = {
    "en": ("English", "English"),
    "de": ("German", "Deutsch"),
    "fr": ("French", "Français"),
    "es": ("Spanish", "Español"),
    "ja": ("Japanese", "日本語"),
    "pt": ("Portuguese", "Português"),
    "it": ("Italian", "Italiano"),
}
_KINDS = ("How to set up the {}", "Unboxing the {}", "Cleaning your {}", "The {} in 60 seconds")
_TYPES = {"video/mp4": "mp4", "video/webm": "webm"}


def _video(rng: Random, title: str, langs: list[str]) -> tuple[str, dict[str, str]]:
    """A captioned video and the URL of each file (keyed "subtitles:de", "video/mp4", ...)."""
    base = f"{slug(title)}-{token(rng, 5)}"
    files: dict[str, str] = {}
    parts = []
    for mime, ext in rng.sample(sorted(_TYPES.items()), 2):
        files[mime] = f"/media/{base}.{ext}"
        parts.append(f'<source src="{files[mime]}" type="{mime}">')
    tracks = []
    for code in langs:
        for kind in ("subtitles", "captions", "chapters"):
            if kind == "chapters" and rng.random() < 0.5:
                continue
            files[f"{kind}:{code}"] = f"/media/tracks/{base}.{kind[:3]}.{code}.{token(rng, 3)}.vtt"
            label = _LANGS[code][1] + (" (CC)" if kind == "captions" else "")
            tracks.append(
                f'<track kind="{kind}" srclang="{code}" label="{escape(label)}" '
                f'src="{files[f"{kind}:{code}"]}">'
            )
    rng.shuffle(tracks)
    html = (
        f'<figure class="video"><video controls preload="metadata" '
        f'poster="/media/{base}.jpg">{"".join(parts + tracks)}</video>'
        f"<figcaption>{escape(title)}</figcaption></figure>"
    )
    return html, files


def generate(rng: Random) -> Generated:
    product = pools.product_name(rng)
    titles = [kind.format(product) for kind in rng.sample(_KINDS, rng.randint(2, 3))]
    langs = rng.sample(sorted(_LANGS), rng.randint(2, 4))
    videos = [_video(rng, title, langs) for title in titles]
    blocks = [html for html, _ in videos]
    rng.shuffle(blocks)
    main = f"<h1>{escape(product)}</h1>{''.join(blocks)}"
    html = wrap_page(
        rng, title=f"{product} videos", main_html=main, difficulty=ARCHETYPE.difficulty
    )
    files = videos[0][1]
    if rng.random() < 0.6:
        code = rng.choice(langs)
        key = f"subtitles:{code}"
        query = (
            f'What is the src of the {_LANGS[code][0]} subtitles track (kind "subtitles", srclang '
            f'"{code}") of the video captioned "{titles[0]}"?'
        )
    else:
        key = rng.choice(sorted(_TYPES))
        query = f'What is the src of the "{key}" source of the video captioned "{titles[0]}"?'
    template = "video_subtitles" if key.startswith("subtitles") else "video_source"
    return Generated(html=html, query=query, query_template=template, truth=files[key])


ARCHETYPE = ArchetypeSpec(
    id="video_track",
    category=Category.MEDIA,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="A video's subtitles track for a language or its source of a type.",
    answer_schema='a string, the src attribute exactly as written (e.g. "/media/tracks/a.de.vtt")',
    generate=generate,
)
