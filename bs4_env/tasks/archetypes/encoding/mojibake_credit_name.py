"""A name from a credits list whose text is mojibake (UTF-8 decoded as Windows-1252), repaired.

Skill: undoing the classic double decoding with the stdlib:
``text.encode("cp1252").decode("utf-8")`` ("JosÃ© NÃºÃ±ez" -> "José Núñez"), applied to the
element's raw ``get_text()`` before collapsing whitespace (some garbled letters contain a
soft hyphen, U+00AD, which must survive the round trip), on the list named by its heading.
Shortcuts resisted: the requested name always has a non-ASCII letter, so the garbled text
as shown never matches; an "Editorial team" list in correct UTF-8 gives the same role to
another person, so the role must be read in the named list; other roles in the named list
are garbled the same way.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import encoding_pools, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_ROLES = (
    "Photographer",
    "Translator",
    "Illustrator",
    "Copy editor",
    "Researcher",
    "Stylist",
    "Art director",
    "Fact checker",
    "Cartographer",
    "Sound editor",
)
_SECTIONS = ("Contributors", "Guest authors", "Photo credits", "Issue credits")


def _person(rng: Random) -> str:
    if rng.random() < 0.5:
        return encoding_pools.accented_name(rng)
    return f"{rng.choice(pools.FIRST_NAMES)} {rng.choice(encoding_pools.ACCENTED_LAST)}"


def _credits(rng: Random, title: str, rows: list[tuple[str, str]], garble: bool) -> str:
    def text(value: str) -> str:
        return escape(encoding_pools.mojibake(value) if garble else value)

    items = "".join(
        f'<li><span class="role">{escape(role)}</span>: <span class="name">{text(name)}</span></li>'
        for role, name in rows
    )
    intro = f"Shot on location in {rng.choice(pools.CITIES)} and {rng.choice(pools.CITIES)}."
    return (
        f'<section class="credits"><h2>{escape(title)}</h2><p>{text(intro)}</p>'
        f'<ul class="credit-list">{items}</ul></section>'
    )


def generate(rng: Random) -> Generated:
    roles = rng.sample(_ROLES, rng.randint(4, 6))
    names = pools.unique(rng, _person, len(roles) + 3)
    rows = list(zip(roles, names[: len(roles)], strict=True))
    target = rng.randrange(len(rows))
    role = roles[target]
    others = [(role, names[len(roles)])] + [
        (r, n) for r, n in zip(rng.sample(_ROLES, 2), names[len(roles) + 1 :], strict=True)
    ]
    rng.shuffle(others)
    section = rng.choice(_SECTIONS)
    blocks = [
        _credits(rng, section, rows, garble=True),
        _credits(rng, "Editorial team", others, garble=False),
    ]
    rng.shuffle(blocks)
    issue = f"Issue {rng.randint(12, 240)}: {rng.choice(pools.CITIES)}"
    main = f"<h1>{escape(issue)}</h1><p>{escape(pools.sentence(rng, 12))}</p>" + "\n".join(blocks)
    html = wrap_page(rng, title=issue, main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f'The "{section}" list shows names whose accented letters are garbled: UTF-8 text '
        'that was decoded as Windows-1252 (e.g. "Ã©" instead of "é"). Who is listed there as '
        f"{role}? Give the name as its author meant it, with the garbling undone."
    )
    return Generated(html=html, query=query, query_template="mojibake_name", truth=names[target])


ARCHETYPE = ArchetypeSpec(
    id="mojibake_credit_name",
    category=Category.ENCODING,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="A credited name garbled as UTF-8 read as cp1252, repaired with encode/decode.",
    answer_schema=(
        'a string, the person\'s name with the garbling undone (e.g. "José Núñez", not '
        '"JosÃ© NÃºÃ±ez")'
    ),
    generate=generate,
)
