"""The lines of one store's ``<br>``-separated postal address, as a list or joined.

Skill: splitting a block on its ``<br>`` elements, not on its text nodes: replace each
``<br>`` with a newline (``for br in block.find_all("br"): br.replace_with("\\n")``), then
``get_text()`` and split on newlines, dropping empty lines; joining with the separator the
request gives.
Shortcuts resisted: most addresses put the postcode (sometimes the city or country) in an
inline ``<span>``, so ``get_text("\\n", strip=True)``, ``stripped_strings`` and
``get_text(", ")`` split one displayed line in two; ``get_text(strip=True)`` glues lines
together; ``<br>`` is spelled ``<br>``, ``<br/>``, ``<br />`` or ``<BR>``, with or without a
source newline after it, and sometimes trails the last line; other stores and the head
office have addresses of the same shape.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import articles, pools, text_pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, JSONValue
from bs4_env.tasks.queries import Query

_SEPARATORS = (", ", " / ", "; ", " | ")


def _store(rng: Random, store: str) -> tuple[str, list[str]]:
    lines = text_pools.address_lines(rng)
    address = text_pools.br_join(rng, [html for html, _ in lines])
    hours = f"Mon–Sat {rng.randint(8, 10)}:00–{rng.randint(17, 21)}:00"
    html = (
        f'<div class="store-card"><h3>{escape(store)}</h3>'
        f'<address class="store-address">{address}</address>'
        f'<p class="hours">{hours}</p></div>'
    )
    return html, [text for _, text in lines]


def _query(rng: Random, store: str, lines: list[str]) -> tuple[Query, JSONValue]:
    if rng.random() < 0.5:
        query = Query(
            template="address_lines",
            text=(
                f'What is the postal address of "{store}"? Return its lines as a list of '
                "strings, one per line as displayed (the lines are separated by line breaks)."
            ),
            answer_schema=(
                'a list of strings, one per displayed line in order (e.g. ["12 Mill Street", '
                f'"69002 Lyon", "France"]), each {queries.DISPLAYED}'
            ),
        )
        return query, lines
    separator = rng.choice(_SEPARATORS)
    query = Query(
        template="address_joined",
        text=(
            f'What is the postal address of "{store}"? Return it as one string, its lines '
            f'joined by "{separator}" (each line as displayed).'
        ),
        answer_schema=(
            "a string, the address lines joined by the separator the request gives (e.g. "
            f'"12 Mill Street, 69002 Lyon, France"), each line {queries.DISPLAYED}'
        ),
    )
    return query, separator.join(lines)


def generate(rng: Random) -> Generated:
    stores = pools.unique(rng, articles.store_name, rng.randint(2, 4))
    built = [_store(rng, store) for store in stores]
    target = rng.randrange(len(stores))
    head_office, _ = _store(rng, f"{rng.choice(pools.COMPANIES)} head office")
    company = stores[target].split(" ")[0]
    main = (
        f"<h1>Our stores</h1><p>{escape(pools.sentence(rng, 10))}</p>"
        f'<div class="stores">{"".join(html for html, _ in built)}</div>'
        f'<aside class="head-office"><h2>Head office</h2>{head_office}</aside>'
    )
    html = wrap_page(
        rng, title=f"{company} stores", main_html=main, difficulty=ARCHETYPE.difficulty
    )
    query, truth = _query(rng, stores[target], built[target][1])
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        answer_schema=query.answer_schema,
        truth=truth,
    )


ARCHETYPE = ArchetypeSpec(
    id="address_br_lines",
    category=Category.TEXT,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=5,
    phase="phase2",
    description="Lines of a <br>-separated address (inline spans inside lines), listed or joined.",
    answer_schema="in the shape the request gives",
    generate=generate,
)
