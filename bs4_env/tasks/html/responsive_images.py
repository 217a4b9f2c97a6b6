"""Responsive-image markup (``srcset``, ``sizes``, ``<picture>``/``<source>``) for ``media``.

Image CDNs write transformations into the URL, some with commas (``w_800,c_fill``), which
is why a ``srcset`` must be split on a comma *followed by whitespace*, not on every comma.
A ``<picture>`` is resolved the way browsers do it: the first ``<source>`` whose media
query matches and whose type is supported wins, else the ``<img>``; the candidate is then
picked by density descriptor.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.metadata_pools import slug
from bs4_env.tasks.rng import token

WIDTHS = (320, 480, 640, 768, 800, 960, 1024, 1200, 1280, 1600, 1920, 2048, 2400)


def photo_caption(rng: Random) -> str:
    """A caption such as "The Aero Kettle on a Kyoto balcony"."""
    place = rng.choice(("balcony", "kitchen", "trail", "desk", "rooftop", "studio", "beach"))
    return f"The {pools.product_name(rng)} on a {rng.choice(pools.CITIES)} {place}"


def url_style(rng: Random) -> int:
    """One CDN URL style per page: 0 plain files, 1 query parameters, 2 comma transforms."""
    return rng.choice((0, 0, 1, 2, 2))


def image_url(style: int, host: str, name: str, width: int, ext: str = "jpg") -> str:
    if style == 0:
        return f"/img/{name}-{width}w.{ext}"
    if style == 1:
        return f"https://{host}/{name}.{ext}?w={width}&q=80&fm={ext}"
    return f"https://{host}/image/upload/w_{width},c_fill,q_auto/{name}.{ext}"


def image_name(rng: Random, caption: str) -> str:
    return f"{slug(caption)[:24].strip('-')}-{token(rng, 6)}"


def srcset(candidates: list[tuple[str, str]]) -> str:
    """A ``srcset`` value; an empty descriptor writes the URL alone (it then means 1x)."""
    return ", ".join(f"{url} {desc}".strip() for url, desc in candidates)


@dataclass(frozen=True)
class Source:
    """One ``<source>``: media bounds (None = unbounded), MIME type, 1x and 2x URLs."""

    min_width: int | None
    max_width: int | None
    mime: str | None
    one_x: str
    two_x: str | None
    bare_one_x: bool
    """The 1x candidate is written without a descriptor."""

    def media(self) -> str | None:
        parts = []
        if self.min_width is not None:
            parts.append(f"(min-width: {self.min_width}px)")
        if self.max_width is not None:
            parts.append(f"(max-width: {self.max_width}px)")
        return " and ".join(parts) or None

    def matches(self, width: int, supported: tuple[str, ...]) -> bool:
        if self.mime is not None and self.mime not in supported:
            return False
        low_ok = self.min_width is None or width >= self.min_width
        return low_ok and (self.max_width is None or width <= self.max_width)

    def pick(self, ratio: int) -> str:
        return self.two_x if ratio == 2 and self.two_x is not None else self.one_x

    def html(self, tag: str = "source") -> str:
        cands = [(self.one_x, "" if self.bare_one_x else "1x")]
        if self.two_x is not None:
            cands.append((self.two_x, "2x"))
        attrs = []
        if tag == "source" and self.media() is not None:
            attrs.append(f'media="{self.media()}"')
        if tag == "source" and self.mime is not None:
            attrs.append(f'type="{self.mime}"')
        attrs.append(f'srcset="{srcset(cands)}"')
        return f"<{tag} {' '.join(attrs)}>"
