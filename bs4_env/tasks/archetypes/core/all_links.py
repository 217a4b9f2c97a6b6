"""Every link in one article's body, as ``{"text", "href"}`` objects in document order.

Skill: scoping ``find_all("a", href=True)`` to one container, collapsing whitespace in
``get_text()`` across nested tags, and keeping ``href`` as written.
Shortcuts resisted: nav, breadcrumbs, footer, sidebar and the article's own byline, tags
and share bar are full of links; a teaser of another article (also with an
``article-body``) may come first; the body holds an ``<a>`` without ``href`` (an anchor
target), links whose text spans nested tags or line breaks, relative/fragment/mailto hrefs
and two links with the same text but different targets.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, JSONValue
from bs4_env.tasks.rng import token

_PHRASES = ("this guide", "the full report", "our changelog", "the survey", "the spec")
_REPEATED = ("here", "read more", "source", "this post")


def _href(rng: Random) -> str:
    kind = rng.randint(0, 5)
    slug = f"{rng.choice(pools.WORDS)}-{token(rng, 5)}"
    if kind == 0:
        return f"https://{rng.choice(pools.WORDS)}-{token(rng, 3)}.example/{slug}"
    if kind == 1:
        return f"../guides/{slug}"
    if kind == 2:
        return f"#{slug}"
    if kind == 3:
        return f"mailto:{rng.choice(pools.FIRST_NAMES).lower()}@{token(rng, 4)}.example"
    return f"/blog/{pools.date_iso(rng)[:4]}/{slug}"


def _link(rng: Random, text: str) -> tuple[str, dict[str, str]]:
    """(html, truth entry) of one link, its text sometimes nested or spread over lines."""
    href = _href(rng)
    shape = rng.randint(0, 4)
    words = text.split(" ")
    if shape == 0 and len(words) > 1:
        inner = f"<strong>{escape(words[0])}</strong> {escape(' '.join(words[1:]))}"
    elif shape == 1:
        inner = f"\n      {escape('   '.join(words))}\n    "
    elif shape == 2:
        inner = f"<em><span>{escape(text)}</span></em>"
    else:
        inner = escape(text)
    return f'<a href="{escape(href)}">{inner}</a>', {"text": text, "href": href}


def _body(rng: Random) -> tuple[str, list[dict[str, str]]]:
    truth: list[dict[str, str]] = []
    repeated = rng.choice(_REPEATED)
    texts = [pools.product_name(rng), pools.person_name(rng), rng.choice(_PHRASES)]
    texts += [repeated, repeated] + [pools.product_name(rng) for _ in range(rng.randint(0, 3))]
    rng.shuffle(texts)
    blocks: list[str] = []
    anchor_at = rng.randint(0, 2)
    while texts:
        chunk = [texts.pop(0) for _ in range(min(len(texts), rng.randint(1, 2)))]
        pieces = []
        for text in chunk:
            html, entry = _link(rng, text)
            truth.append(entry)
            pieces.append(f"{escape(pools.sentence(rng, rng.randint(4, 9)))[:-1]} {html}.")
        if len(blocks) == anchor_at:
            # An anchor target: an <a> without href that must not be listed.
            pieces.insert(0, f'<a id="{token(rng, 6)}" name="sec-{token(rng, 4)}"></a>')
        kind = rng.choice(("p", "p", "li", "blockquote"))
        inner = " ".join(pieces)
        blocks.append(f"<ul><li>{inner}</li></ul>" if kind == "li" else f"<{kind}>{inner}</{kind}>")
    if anchor_at >= len(blocks):
        blocks.append(f'<p><a class="anchor" name="{token(rng, 6)}">Back to top</a></p>')
    return "\n".join(blocks), truth


def _teaser(rng: Random) -> str:
    title = pools.sentence(rng, 5)[:-1]
    link, _ = _link(rng, pools.product_name(rng))
    return (
        f'<article class="teaser"><h2><a href="/blog/{token(rng, 6)}">{escape(title)}</a></h2>'
        f'<div class="article-body"><p>{escape(pools.sentence(rng, 10))} {link}</p></div>'
        "</article>"
    )


def generate(rng: Random) -> Generated:
    title = f"{pools.sentence(rng, rng.randint(3, 6))[:-1]}: {pools.product_name(rng)}"
    body, truth = _body(rng)
    tags = "".join(f'<a rel="tag" href="/tag/{w}">{w}</a> ' for w in rng.sample(pools.WORDS, 3))
    article = (
        f'<article class="post" id="post-{token(rng, 6)}"><header><h1>{escape(title)}</h1>'
        f'<p class="byline">By <a rel="author" href="/authors/{token(rng, 5)}">'
        f"{escape(pools.person_name(rng))}</a></p></header>"
        f'<div class="article-body">\n{body}\n</div>'
        f'<footer class="article-footer"><p class="tags">Tags: {tags}</p><p class="share">'
        f'<a href="https://social.example/share?u={token(rng, 8)}">Share</a> '
        f'<a href="mailto:?subject={token(rng, 6)}">Email</a></p></footer></article>'
    )
    teasers = "".join(_teaser(rng) for _ in range(rng.randint(1, 2)))
    more = f'<section class="more-stories"><h2>More stories</h2>{teasers}</section>'
    main = f"{more}\n{article}" if rng.random() < 0.4 else f"{article}\n{more}"
    html = wrap_page(
        rng,
        title=title,
        main_html=main,
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Blog"),
    )
    query = (
        f'List every link in the body text of the article "{title}" (its paragraphs, lists and '
        "quotes; not the byline, tags, share links, navigation, sidebar or footer), in document "
        'order, as a list of objects {"text": ..., "href": ...}: "text" is the link\'s visible '
        'text with whitespace collapsed and "href" the attribute value as written. Skip <a> '
        "elements that have no href attribute."
    )
    answer: JSONValue = truth
    return Generated(html=html, query=query, query_template="all_links", truth=answer)


ARCHETYPE = ArchetypeSpec(
    id="all_links",
    category=Category.CORE,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    description="All links (text and href) in one article's body, in document order.",
    answer_schema='a list of objects {"text": string, "href": string} in document order',
    generate=generate,
)
