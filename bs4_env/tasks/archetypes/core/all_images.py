"""Every image of one photo gallery, as ``{"src", "alt"}`` objects in document order.

Skill: scoping ``find_all("img")`` to one section, reading attributes that may be absent
(``img.get("alt", "")``) and preferring ``data-src`` over a lazy-loading placeholder ``src``.
Shortcuts resisted: a second gallery with another title sits beside the requested one; the
page also holds a hero image, author avatars, ad creatives and a 1x1 tracking pixel; lazy
images carry a shared placeholder ``src``; some images have no ``alt`` and some an empty
one; one image may sit inside ``<picture>`` next to a ``<source srcset>``.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, JSONValue
from bs4_env.tasks.rng import token

_SCENES = ("Harbor", "Market", "Skyline", "Old town", "Bridge", "Station", "Garden", "Beach")
_TIMES = ("at dawn", "at dusk", "in the rain", "at night", "in winter", "from above", "")
_PLACEHOLDERS = (
    "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==",
    "/static/img/placeholder.svg",
    "/static/img/blank.gif",
)


def _photo(rng: Random, folder: str, placeholder: str) -> tuple[str, dict[str, str]]:
    """(html, truth entry) of one gallery image in one of several markup shapes."""
    src = f"{folder}/{token(rng, 8)}.{rng.choice(('jpg', 'jpeg', 'webp'))}"
    alt = f"{rng.choice(_SCENES)} {rng.choice(_TIMES)}".strip() + f", {rng.choice(pools.CITIES)}"
    alt_mode = rng.choices(("text", "missing", "empty"), weights=(6, 2, 1))[0]
    alt_attr = {"text": f' alt="{escape(alt)}"', "missing": "", "empty": ' alt=""'}[alt_mode]
    truth_alt = alt if alt_mode == "text" else ""
    shape = rng.choices(("plain", "lazy", "picture"), weights=(4, 4, 1))[0]
    if shape == "lazy":
        img = (
            f'<img class="lazy" src="{placeholder}" data-src="{escape(src)}"{alt_attr} '
            'loading="lazy" width="640" height="427">'
        )
    elif shape == "picture":
        stem = src.rsplit(".", 1)[0]
        img = (
            f'<picture><source srcset="{escape(stem)}.avif" type="image/avif">'
            f'<img src="{escape(src)}"{alt_attr}></picture>'
        )
    else:
        img = f'<img src="{escape(src)}"{alt_attr} width="640" height="427">'
    caption = (
        f"<figcaption>{escape(pools.sentence(rng, 5))}</figcaption>" if rng.random() < 0.5 else ""
    )
    return f'<figure class="gallery-item">{img}{caption}</figure>', {"src": src, "alt": truth_alt}


def _gallery(rng: Random, title: str, n: int) -> tuple[str, list[dict[str, str]]]:
    folder = rng.choice(("/photos", "/media/gallery", "https://img.example/g", "img"))
    folder += f"/{token(rng, 5)}"
    placeholder = rng.choice(_PLACEHOLDERS)
    items = [_photo(rng, folder, placeholder) for _ in range(n)]
    html = (
        f'<section class="gallery" id="gallery-{token(rng, 6)}"><h2>{escape(title)}</h2>'
        f'<div class="gallery-grid">{"".join(html for html, _ in items)}</div></section>'
    )
    return html, [entry for _, entry in items]


def generate(rng: Random) -> Generated:
    city = rng.choice(pools.CITIES)
    scene, other_scene = rng.sample(_SCENES, 2)
    title = f"{city}: {scene.lower()} series {rng.randint(2, 30)}"
    other = f"{city}: {other_scene.lower()} series {rng.randint(2, 30)}"
    gallery, truth = _gallery(rng, title, rng.randint(4, 8))
    decoy, _ = _gallery(rng, other, rng.randint(2, 4))
    hero = (
        f'<figure class="hero"><img src="/media/hero/{token(rng, 10)}.jpg" '
        f'alt="{escape(city)}"></figure>'
    )
    pixel = (
        f'<img src="https://px.example/collect?e=view&amp;id={token(rng, 10)}" width="1" '
        'height="1" alt="" style="display:none">'
    )
    ad = (
        f'<div class="ad"><a href="https://ads.example/c/{token(rng, 6)}" rel="sponsored">'
        f'<img src="https://ads.example/banner/{token(rng, 8)}.png" alt="Advertisement"></a></div>'
    )
    byline = (
        f'<p class="byline"><img class="avatar" src="/media/avatars/{token(rng, 6)}.png" alt="">'
        f" Photos by {escape(pools.person_name(rng))}</p>"
    )
    parts = [gallery, ad, decoy]
    rng.shuffle(parts)
    main = (
        f'<article class="photo-story"><h1>{escape(city)} in pictures</h1>{byline}{hero}'
        f"<p>{escape(pools.sentence(rng, 18))}</p>{''.join(parts)}{pixel}</article>"
    )
    html = wrap_page(
        rng, title=f"{city} in pictures", main_html=main, difficulty=ARCHETYPE.difficulty
    )
    query = (
        f'List every image in the photo gallery "{title}", in document order, as a list of '
        'objects {"src": ..., "alt": ...}. For lazy-loaded images use the data-src value (their '
        'src is only a placeholder); use "" as alt when an image has no alt attribute.'
    )
    answer: JSONValue = truth
    return Generated(html=html, query=query, query_template="all_images", truth=answer)


ARCHETYPE = ArchetypeSpec(
    id="all_images",
    category=Category.CORE,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    description="All images (src, alt) of one gallery, with lazy data-src and missing alts.",
    answer_schema='a list of objects {"src": string, "alt": string} in document order',
    generate=generate,
)
