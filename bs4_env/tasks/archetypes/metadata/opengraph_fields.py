"""Several OpenGraph / Twitter-card fields of a page, as one object.

Skill: reading ``<meta>`` tags by their ``property`` *or* ``name`` attribute (OpenGraph
uses ``property``; Twitter cards officially use ``name`` but many sites write
``property``) and keeping the *first* tag of a repeated property.
Shortcuts resisted: a gallery page repeats ``og:image`` (a dict built over all tags keeps
the last one, a wrong one); look-alike keys share prefixes (``og:image:secure_url``,
``og:image:alt``, ``twitter:image:alt``), so prefix or substring matching picks them;
``og:title``, ``twitter:title``, the ``<title>`` and the ``<h1>`` all differ, as do the
OpenGraph and Twitter images; reading only ``property`` (or only ``name``) misses the
Twitter tags written the other way.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import metadata_pools as meta
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_VIEWS = ("front", "side", "back", "detail", "in use")
_TAGLINES = ("Free delivery", "Now in stock", "Official store", "New colours", "Save today")


def _values(rng: Random, product: str, host: str, url: str) -> dict[str, list[str]]:
    """Every field's values in page order (only images repeat)."""
    company = rng.choice(pools.COMPANIES)
    images = [meta.image_url(rng, host, product) for _ in range(rng.choice((1, 2, 2, 3)))]
    return {
        "og:title": [f"{product} – {rng.choice(_TAGLINES)}"],
        "og:description": [meta.description(rng, product)],
        "og:image": images,
        "og:url": [url],
        "og:site_name": [f"{company} {rng.choice(pools.CITIES)}"],
        "twitter:title": [f"{rng.choice(pools.WORDS).capitalize()} {product}"],
        "twitter:image": [meta.image_url(rng, host, product)],
        "twitter:site": [f"@{meta.slug(company).replace('-', '')}_{token(rng, 4)}"],
    }


def _tag(rng: Random, key: str, value: str) -> str:
    if key.startswith("twitter:"):
        return meta.meta(rng.choice(("name", "property")), key, value)
    return meta.meta("property", key, value)


def _head(rng: Random, product: str, host: str, values: dict[str, list[str]]) -> str:
    """Tag groups in random order; a repeated og:image keeps its own order, each image
    followed by its structured properties, as OpenGraph writers emit them."""
    groups = []
    for key, items in values.items():
        group = []
        for value in items:
            group.append(_tag(rng, key, value))
            if key == "og:image":
                group.append(_tag(rng, "og:image:secure_url", meta.image_url(rng, host, product)))
                group.append(_tag(rng, "og:image:width", str(rng.choice((1200, 1080, 800)))))
                group.append(_tag(rng, "og:image:alt", f"{product} {rng.choice(_VIEWS)} view"))
        groups.append("\n".join(group))
    groups += [
        _tag(rng, "twitter:image:alt", f"Photo of the {product}"),
        _tag(rng, "twitter:card", rng.choice(("summary_large_image", "summary"))),
        _tag(rng, "og:type", rng.choice(("product", "website", "article"))),
    ]
    return meta.shuffled_head(rng, groups)


def generate(rng: Random) -> Generated:
    product = pools.product_name(rng)
    host, site = meta.cdn_host(rng), meta.domain(rng)
    url = f"https://{site}{meta.page_path(rng, product)}"
    values = _values(rng, product, host, url)
    wanted = rng.sample(sorted(values), 3)
    if "og:image" not in wanted and rng.random() < 0.5:
        wanted[rng.randrange(3)] = "og:image"
    main = (
        f"<article><h1>{escape(product)}</h1>"
        f'<img src="{escape(values["og:image"][-1])}" alt="{escape(product)}">'
        f"<p>{escape(pools.sentence(rng, rng.randint(10, 20)))}</p></article>"
    )
    html = wrap_page(
        rng,
        title=f"{product} | {rng.choice(_TAGLINES)}",
        main_html=main,
        difficulty=ARCHETYPE.difficulty,
        extra_head=_head(rng, product, host, values),
    )
    names = f'"{wanted[0]}", "{wanted[1]}" and "{wanted[2]}"'
    query = (
        f"From this page's OpenGraph and Twitter-card <meta> tags, return an object with the "
        f"keys {names}, each mapped to that tag's content. Some sites write these tags with a "
        "property attribute, others with a name attribute; where a key appears more than "
        "once, take the first one."
    )
    return Generated(
        html=html,
        query=query,
        query_template="opengraph_fields",
        truth={key: values[key][0] for key in wanted},
    )


ARCHETYPE = ArchetypeSpec(
    id="opengraph_fields",
    category=Category.METADATA,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Three og:/twitter: fields; repeated og:image, property vs name, look-alikes.",
    answer_schema=(
        "an object mapping each requested key to the tag's content attribute, e.g. "
        '{"og:title": "Aero Kettle – Free delivery", "twitter:site": "@acme_k2m9"}'
    ),
    generate=generate,
)
