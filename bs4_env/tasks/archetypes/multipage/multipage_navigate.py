"""Follow the right link from a listing page to the detail page that holds the value.

Skill: on the start page, find the result whose link text names the item and navigate with
its ``href`` exactly as written (relative forms ``../p/x``, ``p/x``, ``/p/x?ref=list#reviews``);
on the detail page, read one labelled value; the same program must tell the pages apart.
Shortcuts resisted: the listing shows no detail values; sibling results have near-identical
names (same model, another suffix) and their own detail pages with the same fields; a
pagination link leads to more results; detail pages name related items and an editor.
"""

from __future__ import annotations

from html import escape
from random import Random
from urllib.parse import urldefrag, urljoin

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import site_name, wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import TaskRandom, token

_KINDS: tuple[str, ...] = (
    "limited",
    "parts and labour",
    "carry-in",
    "on-site",
    "manufacturer",
    "return-to-base",
)
_KINDS += ("extended", "battery excluded")
_OPENERS = (
    "Review:",
    "Hands-on with the",
    "Why we switched to the",
    "First look at the",
    "Long-term test of the",
    "Tested: the",
    "Buying guide for the",
)
_CATS = ("audio", "kitchen", "outdoor", "office", "home", "travel")


def _field(rng: Random, field: str) -> str:
    if field == "author":
        return pools.person_name(rng)
    if field == "warranty":
        return f"{rng.randrange(6, 61, 3)} months ({rng.choice(_KINDS)})"
    if field == "part number":
        return f"{token(rng, 2).upper()}-{rng.randint(10000, 99999)}-{rng.choice('ABCDEFGH')}"
    return f"{rng.randint(120, 9800)} g"


def _names(rng: Random, n: int) -> list[str]:
    """Near-duplicate product names: one base model with different suffixes."""
    base = f"{rng.choice(pools.ADJECTIVES)} {rng.choice(pools.NOUNS)}"
    suffixes = rng.sample(("", " Pro", " Mini", " Max", " Lite", " 2", " Plus", " Air"), n - 1)
    return [base + s for s in suffixes] + [pools.product_name(rng)]


def _href(rng: Random, slug: str, domain: str) -> str:
    style = rng.randrange(4)
    if style == 0:
        return f"../p/{slug}"
    if style == 1:
        return f"/p/{slug}?ref=list#{rng.choice(('reviews', 'specs', 'top'))}"
    return f"p/{slug}" if style == 2 else f"https://{domain}/p/{slug}"


def generate(rng: Random) -> Generated:
    chrome_seed = rng.getrandbits(64)
    _, domain = site_name(TaskRandom(chrome_seed))
    articles = rng.random() < 0.4
    field = "author" if articles else rng.choice(("warranty", "part number", "weight"))
    start_url = f"https://{domain}/shop/{rng.choice(_CATS)}/search?q={token(rng, 5)}"
    names = _names(rng, rng.randint(4, 6))
    if articles:
        names = [f"{rng.choice(_OPENERS)} {n}" for n in names]
    values = pools.unique(rng, lambda r: _field(r, field), len(names) + 2)
    pages: dict[str, str] = {}

    def page(title: str, main: str) -> str:
        return wrap_page(
            TaskRandom(chrome_seed), title=title, main_html=main, difficulty=ARCHETYPE.difficulty
        )

    def detail(name: str, value: str, others: list[str]) -> str:
        related = "".join(f"<li>{escape(o)}</li>" for o in others)
        if articles:
            editor = pools.person_name(rng)
            while editor == value:
                editor = pools.person_name(rng)
            body = (
                f'<article><h1 class="entry-title">{escape(name)}</h1><p class="byline">By '
                f'<a rel="author" href="/authors/{token(rng, 6)}">{escape(value)}</a></p>'
                f'<p>{escape(pools.sentence(rng, 30))}</p><p class="credits">Edited by '
                f"{escape(editor)}</p></article>"
            )
        else:
            rows = [
                ("Price", pools.price(rng)),
                (field.capitalize(), value),
                ("SKU", pools.sku(rng)),
            ]
            specs = "".join(f"<tr><th>{k}</th><td>{escape(v)}</td></tr>" for k, v in rows)
            body = (
                f'<h1 class="product-title">{escape(name)}</h1><table class="specs">{specs}</table>'
                f"<p>{escape(pools.sentence(rng, 20))}</p>"
            )
        return page(
            name, f'{body}<aside class="similar"><h2>Similar</h2><ul>{related}</ul></aside>'
        )

    def listing(url: str, items: list[tuple[str, str]], nav: str) -> str:
        cards = []
        for name, value in items:
            slug = f"{name.split()[-1].lower()}-{token(rng, 6)}"
            href = _href(rng, slug, domain)
            pages[urldefrag(urljoin(url, href))[0]] = detail(
                name, value, rng.sample([n for n in names if n != name], 2)
            )
            cards.append(
                f'<li class="result"><a class="result-link" href="{escape(href)}">{escape(name)}'
                f'</a><span class="price">{pools.price(rng)}</span>'
                f"<p>{escape(pools.sentence(rng, 10))}</p></li>"
            )
        return page("Search results", f'<ul class="results">{"".join(cards)}</ul>{nav}')

    first = list(zip(names, values, strict=False))
    rng.shuffle(first)
    later = [(pools.product_name(rng), v) for v in values[len(names) :]]
    if articles:
        later = [(f"{rng.choice(_OPENERS)} {n}", v) for n, v in later]
    next_url = urldefrag(urljoin(start_url, "?page=2"))[0]
    pages[next_url] = listing(next_url, later, '<a class="prev" href="?page=1">Previous</a>')
    nav = '<nav class="pagination"><a class="next" rel="next" href="?page=2">Next page</a></nav>'
    pages[start_url] = listing(start_url, first, nav)
    target, truth = names[0], values[0]
    if articles:
        query = f'Who wrote the article titled "{target}"? Answer with the author\'s name.'
    else:
        # Examples lie outside the generated value space, so they never equal the answer.
        example = {"warranty": "3 months (limited)", "part number": "QO-12345-A"}
        query = (
            f'What is the {field} of the "{target}"? Answer with the value exactly as listed on '
            f'its product page (e.g. "{example.get(field, "95 g")}").'
        )
    return Generated(
        html=pages[start_url],
        query=query,
        query_template="multipage_navigate",
        truth=truth,
        pages=pages,
        start_url=start_url,
    )


ARCHETYPE = ArchetypeSpec(
    id="multipage_navigate",
    category=Category.MULTIPAGE,
    difficulty=Difficulty.HARD,
    solvable=True,
    version=6,
    phase="phase2",
    description="Follow a relative link from a listing to the one detail page holding the value.",
    answer_schema="a string, the value exactly as shown on the detail page",
    generate=generate,
    free_tool_calls=6,
)
