"""Which file a browser loads for one ``<picture>``, given a window width and pixel ratio.

Skill: finding the ``<picture>`` by its caption and resolving it as a browser does: the
first ``<source>`` whose ``media`` query matches the window width and whose ``type`` is
supported, else the ``<img>``; then the ``srcset`` candidate for the pixel ratio (a bare
URL means 1x). The request states every rule; the work is reading the attributes right.
Shortcuts resisted: the first ``<source>`` is often an AVIF one that this browser cannot
use; the ``<img src>`` fallback, the widest file and the first matching-width source of
an unsupported type are all wrong on most seeds; media queries mix ``min-width``,
``max-width`` and ranges; on CDN-style seeds URLs contain commas; other pictures of the
page share the markup.
"""

from __future__ import annotations

from html import escape
from itertools import pairwise
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html import responsive_images as ri
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

SUPPORTED = ("image/webp", "image/jpeg", "image/png")
_MIMES = {"avif": "image/avif", "webp": "image/webp", "jpg": None}
_BREAKS = (480, 600, 768, 1024, 1200, 1440)
_WINDOWS = (360, 414, 540, 700, 800, 900, 1100, 1280, 1366, 1600, 1920)


def _source(
    rng: Random, style: int, host: str, name: str, bounds: tuple[int | None, int | None], ext: str
) -> ri.Source:
    width = bounds[0] or bounds[1] or 1024
    return ri.Source(
        min_width=bounds[0],
        max_width=bounds[1],
        mime=_MIMES[ext] if ext != "jpg" or rng.random() < 0.5 else "image/jpeg",
        one_x=ri.image_url(style, host, f"{name}-{token(rng, 3)}", width, ext),
        two_x=ri.image_url(style, host, f"{name}-{token(rng, 3)}", width * 2, ext)
        if rng.random() < 0.8
        else None,
        bare_one_x=rng.random() < 0.4,
    )


def _picture(rng: Random, style: int, host: str, caption: str) -> tuple[list[ri.Source], ri.Source]:
    """Sources in document order (widest media first, as authors write them) and the img."""
    name = ri.image_name(rng, caption)
    cuts = sorted(rng.sample(_BREAKS, rng.randint(1, 3)), reverse=True)
    bounds: list[tuple[int | None, int | None]] = [(cuts[0], None)]
    bounds += [
        (low, high - 1) if rng.random() < 0.5 else (low, None) for high, low in pairwise(cuts)
    ]
    if rng.random() < 0.5:
        bounds.append((None, cuts[-1] - 1))
    sources = [
        _source(rng, style, host, name, b, rng.choice(("webp", "jpg", "avif"))) for b in bounds
    ]
    if rng.random() < 0.6:
        sources.insert(0, _source(rng, style, host, name, (None, None), "avif"))
    img = _source(rng, style, host, name, (None, None), "jpg")
    return sources, img


def _load(sources: list[ri.Source], img: ri.Source, width: int, ratio: int) -> str:
    chosen = next((s for s in sources if s.matches(width, SUPPORTED)), img)
    return chosen.pick(ratio)


def _html(sources: list[ri.Source], img: ri.Source, caption: str) -> str:
    # An <img> with only a 1x file carries no srcset at all, just its src.
    extra = img.html("img")[4:-1] if img.two_x is not None else ""
    fallback = f'<img src="{escape(img.one_x)}"{extra} alt="{escape(caption)}">'
    return (
        f'<figure class="hero"><picture>{"".join(s.html() for s in sources)}{fallback}'
        f"</picture><figcaption>{escape(caption)}</figcaption></figure>"
    )


def generate(rng: Random) -> Generated:
    style = ri.url_style(rng)
    host = f"img-{token(rng, 5)}.example"
    captions = pools.unique(rng, ri.photo_caption, rng.randint(2, 3))
    pictures = [_picture(rng, style, host, c) for c in captions]
    width, ratio = rng.choice(_WINDOWS), rng.choice((1, 1, 2))
    blocks = [_html(s, i, c) for (s, i), c in zip(pictures, captions, strict=True)]
    rng.shuffle(blocks)
    blocks.append(f"<p>{escape(pools.sentence(rng, 14))}</p>")
    main = f'<section class="stories">{"".join(blocks)}</section>'
    html = wrap_page(rng, title="Stories", main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f'The picture captioned "{captions[0]}" is shown in a browser window {width} px wide on '
        f"a display with device pixel ratio {ratio}. The browser supports WebP but not AVIF. "
        "Which image URL does it load? It uses the first <source> whose media query (if any) "
        "matches the window width and whose type (if any) it supports, otherwise the <img>; "
        "from that srcset it takes the candidate whose density descriptor equals the pixel "
        "ratio (a URL without a descriptor is 1x; if no candidate matches, the 1x one); an "
        "<img> without a srcset loads its src."
    )
    truth = _load(*pictures[0], width, ratio)
    return Generated(html=html, query=query, query_template="picture_source", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="picture_source",
    category=Category.MEDIA,
    difficulty=Difficulty.HARD,
    solvable=True,
    version=5,
    phase="phase2",
    description="The file a browser loads from a <picture> for a given width, ratio and types.",
    answer_schema='a string, the chosen URL exactly as written (e.g. "/img/hero-768w.webp")',
    generate=generate,
)
