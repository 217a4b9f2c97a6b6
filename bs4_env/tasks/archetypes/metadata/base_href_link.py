"""The absolute URL of a relative link on a page that declares ``<base href>``.

Skill: resolving a relative ``href`` the way a browser does: against the document's base
URL, which is the first ``<base>`` element *with an href* (itself resolved against the
page URL), via ``urllib.parse.urljoin``; and finding the link by its section heading.
Shortcuts resisted: resolving against the page URL (ignoring ``<base>``) is wrong on every
seed; some pages put a ``<base target="_blank">`` without href first (so
``soup.find("base")["href"]`` raises) or a second ``<base href>`` later in the body that
browsers ignore; the same link text appears in another section with another href; hrefs
mix ``../``, ``./``, root-relative paths, query-only and fragment forms.
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

_SECTIONS = (
    "Getting started", "Configuration", "Deployment", "Troubleshooting", "Upgrading",
    "Reference", "Integrations", "Security", "Tutorials", "Command line",
)  # fmt: skip
_LINKS = (
    "Installation guide", "API reference", "Release notes", "Configuration file",
    "CLI options", "Migration guide", "FAQ", "Examples", "Changelog", "Support",
    "Quick start", "Glossary", "Plugins", "Known issues",
)  # fmt: skip
_DIRS = ("guide", "manual", "handbook", "kb", "help", "learn")


def _href(rng: Random, text: str) -> str:
    """A relative href in one of the forms documentation sites use."""
    name = f"{meta.slug(text)}-{token(rng, 4)}"
    style = rng.randrange(6)
    if style == 0:
        return f"{name}.html"
    if style == 1:
        return f"../{rng.choice(_DIRS)}/{name}.html"
    if style == 2:
        return f"./{name}/"
    if style == 3:
        return f"/{rng.choice(_DIRS)}/{name}"
    if style == 4:
        return f"{name}.html#{meta.slug(rng.choice(_LINKS))}"
    return f"../../{name}/index.html?v={rng.randint(2, 9)}"


def _base(rng: Random, host: str) -> str:
    version = f"v{rng.randint(1, 12)}.{rng.randint(0, 9)}"
    if rng.random() < 0.5:
        docs = f"docs-{token(rng, 4)}.{host.split('.', 1)[1]}"
        return f"https://{docs}/{version}/{rng.choice(_DIRS)}/"
    return f"/docs/{version}/{rng.choice(_DIRS)}/{token(rng, 4)}/"


def _section(rng: Random, title: str, links: list[tuple[str, str]]) -> str:
    items = "".join(f'<li><a href="{escape(h)}">{escape(t)}</a></li>' for t, h in links)
    return (
        f'<section class="doc-section"><h2>{escape(title)}</h2>'
        f"<p>{escape(pools.sentence(rng, rng.randint(8, 14)))}</p><ul>{items}</ul></section>"
    )


def generate(rng: Random) -> Generated:
    host = f"www.{meta.slug(rng.choice(pools.COMPANIES)).replace('-', '')}-{token(rng, 4)}.example"
    page_url = f"https://{host}/{rng.choice(_DIRS)}/{token(rng, 6)}/page-{rng.randint(2, 99)}.html"
    base_href = _base(rng, host)
    titles = rng.sample(_SECTIONS, rng.randint(2, 4))
    # Two link texts recur in every section (with other hrefs), so the section matters.
    shared = rng.sample(_LINKS, 2)
    layout = {}
    for title in titles:
        own = [t for t in rng.sample(_LINKS, 4) if t not in shared][:2]
        layout[title] = [(t, _href(rng, t)) for t in (*shared, *own)]
        rng.shuffle(layout[title])
    section = rng.choice(titles)
    text = rng.choice(shared)
    href = dict(layout[section])[text]
    while href.startswith("/"):  # a root-relative href resolves alike against any base
        href = _href(rng, text)
    layout[section] = [(t, href if t == text else h) for t, h in layout[section]]
    head = [f'<base href="{escape(base_href)}">']
    if rng.random() < 0.3:
        head.insert(0, '<base target="_blank">')
    main = "".join(_section(rng, title, layout[title]) for title in titles)
    if rng.random() < 0.3:
        main += f'<base href="https://{token(rng, 6)}.example/widget/">'
    html = wrap_page(
        rng,
        title=f"{section} – Documentation",
        main_html=main,
        difficulty=ARCHETYPE.difficulty,
        extra_head="\n".join(head),
    )
    query = (
        f'This page was opened at {page_url} . What absolute URL does the link "{text}" in the '
        f'"{section}" section point to? Resolve its href exactly as a browser would for this page.'
    )
    return Generated(
        html=html,
        query=query,
        query_template="base_href_link",
        truth=urljoin(urljoin(page_url, base_href), href),
        start_url=page_url,
    )


ARCHETYPE = ArchetypeSpec(
    id="base_href_link",
    category=Category.METADATA,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Resolve a relative link against the first <base href>, not the page URL.",
    answer_schema='a string, an absolute URL (e.g. "https://docs.acme.example/v2/guide/install.html")',
    generate=generate,
)
