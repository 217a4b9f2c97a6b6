"""The page's canonical URL from ``<link rel="canonical">``, made absolute.

Skill: ``soup.find("link", rel="canonical")`` (BeautifulSoup parses ``rel`` as a
multi-valued attribute, so ``tag.get("rel") == "canonical"`` is never true: it is the list
``["canonical"]``) and ``urllib.parse.urljoin`` of its href against the page URL.
Shortcuts resisted: the page URL itself (a variant with tracking parameters) is not the
canonical one; ``og:url``, ``amphtml``, ``shortlink``, ``prev``/``next``, hreflang
alternates and an RSS alternate are all links of the same page with other URLs; the
canonical href is root-relative or protocol-relative on many seeds, so answering the raw
href is wrong there.
"""

from __future__ import annotations

from html import escape
from random import Random
from urllib.parse import urljoin

from bs4_env.tasks.html import metadata_pools as meta
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_AISLES = ("kitchen", "outdoor", "audio", "office", "travel", "home", "sale", "new")
_COLORS = ("black", "white", "sage", "navy", "sand", "red", "graphite", "ocean")


def _hosts(rng: Random) -> tuple[str, str]:
    """(host the page was opened on, host of an absolute canonical URL)."""
    company = meta.slug(rng.choice(pools.COMPANIES)).replace("-", "")
    bare = f"{company}-{token(rng, 4)}.example"
    return rng.choice((f"www.{bare}", f"m.{bare}", bare)), rng.choice((f"www.{bare}", bare))


def _page_url(rng: Random, host: str, product: str, item: str) -> str:
    """A faceted-navigation or campaign URL of the product, not its canonical path."""
    where = f"https://{host}/{rng.choice(_AISLES)}/{meta.slug(rng.choice(pools.NOUNS))}s/{item}"
    style = rng.randrange(3)
    if style == 0:
        tail = f"?color={rng.choice(_COLORS)}&size={rng.choice(('s', 'm', 'l', 'xl'))}"
        return f"{where}{tail}&{meta.tracking_query(rng)[1:]}"
    if style == 1:
        return f"{where}/{rng.choice(_COLORS)}{meta.tracking_query(rng)}"
    return f"{where}/reviews?page={rng.randint(2, 9)}"


def _canonical_href(rng: Random, host: str, path: str) -> str:
    style = rng.randrange(5)
    if style in (0, 1):
        return f"https://{host}{path}"
    if style in (2, 3):
        return path
    return f"//{host}{path}"


def _decoys(rng: Random, site: str, path: str, page_url: str) -> list[str]:
    home = f"https://{site}"
    tags = [
        meta.meta("property", "og:url", page_url if rng.random() < 0.5 else f"{home}{path}/"),
        meta.link("amphtml", f"{home}/amp{path}"),
        meta.link("shortlink", f"{home}/?p={rng.randint(100, 99999)}"),
        meta.link("alternate", f"{home}/feed/{token(rng, 5)}.xml", type="application/rss+xml"),
        meta.link("icon", f"/favicon-{token(rng, 4)}.ico"),
    ]
    for code in rng.sample(("de", "fr", "es", "en-GB", "it", "nl"), rng.randint(1, 3)):
        tags.append(meta.link("alternate", f"{home}/{code.lower()}{path}", hreflang=code))
    if rng.random() < 0.5:
        tags.append(meta.link("next", f"{home}{path}/reviews?page={rng.randint(2, 9)}"))
    return tags


def generate(rng: Random) -> Generated:
    product = pools.product_name(rng)
    page_host, host = _hosts(rng)
    item = f"{meta.slug(product)}-{token(rng, 4)}"
    path = f"/{rng.choice(('p', 'product', 'item', 'dp'))}/{item}"
    page_url = _page_url(rng, page_host, product, item)
    href = _canonical_href(rng, host, path)
    site = host
    tags = [meta.link("canonical", href), *_decoys(rng, site, path, page_url)]
    share = f"https://social.example/share?u={token(rng, 10)}"
    main = (
        f"<article><h1>{escape(product)}</h1><p>{escape(pools.sentence(rng, 14))}</p>"
        f'<p class="share"><a rel="nofollow noopener" href="{share}">Share</a> · '
        f'<a rel="bookmark" href="{path}/{token(rng, 5)}">Permalink</a></p></article>'
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
            f"This page was opened at {page_url} . What is its canonical URL, as given by its "
            '<link rel="canonical"> tag? Answer with an absolute URL: resolve a relative href '
            "against the page's URL."
        ),
        query_template="canonical_url",
        truth=urljoin(page_url, href),
        start_url=page_url,
    )


ARCHETYPE = ArchetypeSpec(
    id="canonical_url",
    category=Category.METADATA,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="The absolute canonical URL among og:url, amphtml, shortlink and alternates.",
    answer_schema='a string, an absolute URL (e.g. "https://www.acme.example/shop/kettle-k2m9")',
    generate=generate,
)
