"""The page's meta description: ``<meta name="description">``, not its social look-alikes.

Skill: ``soup.find("meta", attrs={"name": "description"})["content"]``, i.e. matching a
meta tag by its ``name`` attribute (``name=`` as a keyword argument means the tag name in
BeautifulSoup, so it must go through ``attrs``) and reading ``content``.
Shortcuts resisted: ``og:description`` (a ``property`` attribute), ``twitter:description``
(a ``name`` attribute that merely contains "description") and a microdata
``itemprop="description"`` tag carry other texts, in random order around it; the visible
lead paragraph says something else again; old templates write the tag in upper case
(``<META NAME=... CONTENT=...>``) and escape quotes and ``&`` as entities, so a regex
over the raw HTML misses or garbles it.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import metadata_pools as meta
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def _text(rng: Random, product: str) -> str:
    text = meta.description(rng, product)
    if rng.random() < 0.3:
        text = text.replace(product, f'"{product}"', 1)
    return text


def generate(rng: Random) -> Generated:
    product = pools.product_name(rng)
    truth, og, twitter, lead = (_text(rng, product) for _ in range(4))
    tags = [
        meta.meta("name", "description", truth, upper=rng.random() < 0.3),
        meta.meta("property", "og:description", og),
        meta.meta("property", "og:title", product),
    ]
    if rng.random() < 0.7:
        tags.append(meta.meta("name", "twitter:description", twitter))
    if rng.random() < 0.5:
        tags.append(meta.meta("name", "keywords", ", ".join(rng.sample(pools.WORDS, 5))))
    main = (
        f'<article class="product" itemscope itemtype="https://schema.org/Product">'
        f'<h1 itemprop="name">{escape(product)}</h1><p class="lead">{escape(lead)}</p>'
        f'<meta itemprop="description" content="{escape(_text(rng, product))}">'
        f"<p>{escape(pools.sentence(rng, rng.randint(10, 18)))}</p></article>"
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
            "What is this page's meta description, i.e. the content of its <meta name=\""
            'description"> tag? (Not the OpenGraph or Twitter description.)'
        ),
        query_template="meta_description",
        truth=truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="meta_description",
    category=Category.METADATA,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="The <meta name=description> content among og:, twitter: and itemprop ones.",
    answer_schema=(
        "a string, the tag's content attribute as BeautifulSoup reads it (entities such as "
        '&amp; decoded), e.g. "Shop the Aero Kettle: quiet, durable and compact."'
    ),
    generate=generate,
)
