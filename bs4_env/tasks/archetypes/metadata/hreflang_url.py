"""The URL a page's hreflang alternates give for one exact language code.

Skill: ``soup.find("link", rel="alternate", hreflang=code)`` (an exact attribute match on
a ``<link>`` in the head) and reading its ``href``.
Shortcuts resisted: every requested code has siblings on the page (``de`` beside
``de-AT`` and ``de-CH``, ``en`` beside ``en-GB`` and ``en-US``), so substring or prefix
matching on ``hreflang`` picks a sibling; an ``x-default`` and a canonical link point
elsewhere; a visible language switcher repeats the codes on ``<a hreflang>`` anchors with
redirect URLs, so "the last element with that hreflang" is wrong.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import metadata_pools as meta
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_FAMILIES = (
    ("de", "de-AT", "de-CH"),
    ("en", "en-GB", "en-US", "en-AU"),
    ("fr", "fr-CA", "fr-BE", "fr-CH"),
    ("es", "es-MX", "es-AR"),
    ("pt", "pt-BR", "pt-PT"),
    ("zh-Hans", "zh-Hant", "zh-TW"),
    ("nl", "nl-BE"),
)


def _url(style: int, bare: str, code: str, path: str) -> str:
    if style == 0:
        return f"https://www.{bare}/{code.lower()}{path}"
    if style == 1:
        return f"https://{code.lower()}.{bare}{path}"
    return f"https://www.{bare}{path}?lang={code}"


def generate(rng: Random) -> Generated:
    product = pools.product_name(rng)
    company = meta.slug(rng.choice(pools.COMPANIES)).replace("-", "")
    bare = f"{company}-{token(rng, 4)}.example"
    path = f"/{rng.choice(('p', 'products', 'shop'))}/{meta.slug(product)}-{token(rng, 5)}"
    families = rng.sample(_FAMILIES, rng.randint(2, 4))
    codes = [code for family in families for code in family]
    style = rng.randrange(3)
    urls = {code: _url(style, bare, code, path) for code in codes}
    target = rng.choice([code for code in codes if "-" in code or rng.random() < 0.5])
    tags = [meta.link("alternate", urls[code], hreflang=code) for code in codes]
    tags.append(meta.link("alternate", f"https://www.{bare}{path}", hreflang="x-default"))
    tags.append(meta.link("canonical", f"https://www.{bare}{path}"))
    switch = "".join(
        f'<li><a href="/switch?to={code}&amp;r={token(rng, 6)}" hreflang="{code}" '
        f'lang="{code}">{code}</a></li>'
        for code in rng.sample(codes, len(codes))
    )
    main = (
        f"<article><h1>{escape(product)}</h1><p>{escape(pools.sentence(rng, 12))}</p></article>"
        f'<nav class="lang-switch" aria-label="Language"><ul>{switch}</ul></nav>'
    )
    html = wrap_page(
        rng,
        title=product,
        main_html=main,
        difficulty=ARCHETYPE.difficulty,
        extra_head=meta.shuffled_head(rng, tags),
    )
    return Generated(
        html=html,
        query=(
            'Which URL do this page\'s hreflang alternate links (<link rel="alternate" '
            f'hreflang="..."> in the head) give for exactly the language code "{target}"?'
        ),
        query_template="hreflang_url",
        truth=urls[target],
    )


ARCHETYPE = ArchetypeSpec(
    id="hreflang_url",
    category=Category.METADATA,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="The hreflang alternate URL for one exact language code among its siblings.",
    answer_schema=(
        'a string, the link\'s href exactly as written (e.g. "https://www.acme.example/de-at/p/kettle")'
    ),
    generate=generate,
)
