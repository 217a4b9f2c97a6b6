"""The widest candidate of one image's ``srcset`` (largest ``w`` descriptor).

Skill: finding the ``<img>`` by its caption, splitting its ``srcset`` into candidates on
a comma *followed by whitespace* and each candidate into URL and ``w`` descriptor, and
taking the URL with the largest width.
Shortcuts resisted: ``src`` is a middle-sized candidate; candidates are listed in random
order, so "the last candidate" is wrong on most seeds; on CDN-style seeds URLs contain
commas (``w_800,c_fill,q_auto``), so ``srcset.split(",")`` cuts them apart; other figures
of the gallery carry the same markup with other captions.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html import responsive_images as ri
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token


def _figure(rng: Random, style: int, host: str, caption: str) -> tuple[str, str]:
    """A figure with a srcset image, and the URL of its widest candidate."""
    name = ri.image_name(rng, caption)
    widths = rng.sample(ri.WIDTHS, rng.randint(3, 5))
    urls = {w: ri.image_url(style, host, name, w) for w in widths}
    middle = sorted(widths)[len(widths) // 2]
    rng.shuffle(widths)
    attrs = (
        f'src="{escape(urls[middle])}" '
        f'srcset="{escape(ri.srcset([(urls[w], f"{w}w") for w in widths]))}" '
        f'sizes="(max-width: {rng.choice((600, 768, 900))}px) 100vw, {rng.choice((50, 66, 33))}vw"'
    )
    html = (
        f'<figure class="photo"><img {attrs} alt="{escape(caption)}" loading="lazy">'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )
    return html, urls[max(widths)]


def generate(rng: Random) -> Generated:
    style = ri.url_style(rng)
    host = f"img-{token(rng, 5)}.example"
    captions = pools.unique(rng, ri.photo_caption, rng.randint(3, 4))
    figures = [_figure(rng, style, host, c) for c in captions]
    truth = figures[0][1]
    blocks = [html for html, _ in figures]
    rng.shuffle(blocks)
    main = f'<section class="gallery"><h2>Gallery</h2>{"".join(blocks)}</section>'
    html = wrap_page(rng, title="Photo gallery", main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f'In the srcset of the image captioned "{captions[0]}", which URL is the widest candidate '
        '(the largest "w" descriptor)? Candidates are separated by a comma followed by '
        "whitespace; a URL may itself contain commas."
    )
    return Generated(html=html, query=query, query_template="srcset_largest", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="srcset_largest",
    category=Category.MEDIA,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="The widest srcset candidate of one captioned image; comma URLs, random order.",
    answer_schema='a string, the candidate URL exactly as written (e.g. "/img/kettle-1600w.jpg")',
    generate=generate,
)
