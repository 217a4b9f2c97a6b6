"""Text of the element with a given id.

Skill: ``soup.find(id=...)`` and ``get_text()`` on an element with inline children.
Shortcuts resisted: the id is seed-random and near-duplicate ids (same prefix, one
character apart) sit next to it with different text, so substring or regex guesses over
the raw HTML pick the wrong element; the text is drawn from a large combinatorial pool.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_PREFIXES = ("promo", "notice", "banner", "tagline", "summary", "status", "headline", "note")


def _message(rng: Random) -> tuple[str, str]:
    """(html, text) of a short message, sometimes with an inline tag inside."""
    product = pools.product_name(rng)
    words = pools.sentence(rng, rng.randint(4, 9))
    amount = f"{rng.randint(5, 60)}%"
    if rng.random() < 0.5:
        return (
            f"{escape(words)} Save <strong>{amount}</strong> on {escape(product)}.",
            f"{words} Save {amount} on {product}.",
        )
    return f"{escape(product)}: {escape(words)}", f"{product}: {words}"


def generate(rng: Random) -> Generated:
    prefix = rng.choice(_PREFIXES)
    target_id = f"{prefix}-{token(rng, 5)}"
    decoy_ids = [target_id[:-1] + c for c in "abcdefghk" if target_id[:-1] + c != target_id]
    blocks: list[tuple[str, str]] = []
    target_html, truth = _message(rng)
    blocks.append((target_id, target_html))
    for decoy_id in rng.sample(decoy_ids, rng.randint(2, 4)):
        blocks.append((decoy_id, _message(rng)[0]))
    rng.shuffle(blocks)
    body = "\n".join(
        f'<section class="panel"><h2>{escape(pools.sentence(rng, 3))}</h2>'
        f'<p id="{element_id}" class="{prefix}">{content}</p></section>'
        for element_id, content in blocks
    )
    html = wrap_page(
        rng, title=pools.product_name(rng), main_html=body, difficulty=ARCHETYPE.difficulty
    )
    return Generated(
        html=html,
        query=f"What is the text of the element with id '{target_id}'?",
        query_template="text_by_id",
        truth=truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="text_by_id",
    category=Category.CORE,
    difficulty=Difficulty.PRIMER,
    solvable=True,
    version=2,
    description="Text of the element with a given id, among near-duplicate ids.",
    answer_schema="a string, the element's visible text with whitespace collapsed",
    generate=generate,
)
