"""Text of the element with one class inside the element with one id (``#id .class``).

Skill: a descendant CSS selector, ``soup.select_one("#box-id .tagline")`` (or
``soup.find(id=...).find(class_=...)``): scoping a class lookup to one container.
Shortcuts resisted: the same class appears in every other box and in a banner before all
boxes, so ``soup.find(class_=...)`` or "the first ``.tagline``" answers wrongly; inside the
box a sibling element carries another class; the texts come from a large pool.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_CLASSES = ("tagline", "note", "summary", "status", "highlight", "caption", "subtitle", "lead")
_PREFIXES = ("card", "box", "panel", "tile", "block")


def _text(rng: Random) -> str:
    return f"{pools.product_name(rng)}: {pools.sentence(rng, rng.randint(3, 6))}"


def generate(rng: Random) -> Generated:
    wanted, other = rng.sample(_CLASSES, 2)
    prefix = rng.choice(_PREFIXES)
    ids = pools.unique(rng, lambda r: f"{prefix}-{token(r, 4)}", rng.randint(3, 4))
    target = rng.randrange(len(ids))
    boxes = []
    truth = ""
    for index, box_id in enumerate(ids):
        text = _text(rng)
        truth = text if index == target else truth
        inner = [
            f'<p class="{wanted}">{escape(text)}</p>',
            f'<p class="{other}">{escape(_text(rng))}</p>',
        ]
        rng.shuffle(inner)
        boxes.append(
            f'<div class="{prefix}" id="{box_id}"><h2>{escape(pools.product_name(rng))}</h2>'
            f"{''.join(inner)}</div>"
        )
    banner = f'<p class="{wanted}">{escape(_text(rng))}</p>'
    main = banner + "\n" + "\n".join(boxes)
    html = wrap_page(
        rng, title=pools.product_name(rng), main_html=main, difficulty=ARCHETYPE.difficulty
    )
    query = (
        f'Inside the element with id "{ids[target]}", what is the text of the element with '
        f'class "{wanted}"?'
    )
    return Generated(html=html, query=query, query_template="scoped_class_in_id", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="scoped_class_in_id",
    category=Category.SELECTORS,
    difficulty=Difficulty.PRIMER,
    solvable=True,
    version=1,
    phase="phase2",
    description="Text of the element with a class inside the element with an id (#id .class).",
    answer_schema=(
        "a string, that element's text with whitespace collapsed "
        '(e.g. "Nova Kettle: Quiet sturdy compact design.")'
    ),
    generate=generate,
)
