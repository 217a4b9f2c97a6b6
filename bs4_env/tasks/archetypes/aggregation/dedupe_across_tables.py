"""The distinct attendees of two named tables, by e-mail, in order of first appearance.

Skill: finding two tables by their captions (in the order the request names them, not the
page's order), reading the Email column by its header, lower-casing and stripping each
address, and keeping the first occurrence of each in a list (an order-preserving dedupe).
Shortcuts resisted: concatenating the columns repeats people registered for both events
(and people registered twice in one table); deduping the raw texts keeps the repeats,
which are written in other letter case and with stray spaces; a ``set`` or ``sorted``
loses the order; reading the tables in page order puts the second-named table first on
about half the pages; a third table (a waitlist) with the same columns and some of the
same people is not asked for; the Email column is not always the second one.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import aggregation_pools as agg
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

Person = tuple[str, str, str]  # (name, lower-case email, company)
_ORDERS = (
    ("Name", "Email", "Company"),
    ("Email", "Name", "Company"),
    ("Name", "Company", "Email"),
)


def _people(rng: Random, n: int) -> list[Person]:
    # Distinct names give distinct local parts, hence distinct addresses.
    names = pools.unique(rng, pools.person_name, n)
    return [(name, agg.email(rng, name), rng.choice(pools.COMPANIES)) for name in names]


def _cell(rng: Random, mail: str, respelled: bool) -> str:
    shown = agg.recase_email(rng, mail) if respelled else mail
    if rng.random() < 0.3:
        shown = f" {shown} "
    if rng.random() < 0.4:
        return f'<a href="mailto:{mail}">{escape(shown)}</a>'
    return escape(shown)


def _table(rng: Random, title: str, rows: list[tuple[Person, bool]], order: tuple[str, ...]) -> str:
    body = []
    for (name, mail, company), respelled in rows:
        cells = {
            "Name": escape(name),
            "Email": _cell(rng, mail, respelled),
            "Company": escape(company),
        }
        body.append("<tr>" + "".join(f"<td>{cells[h]}</td>" for h in order) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in order)
    return (
        f'<section class="attendees" id="t-{token(rng, 6)}"><h2>{escape(title)}</h2>'
        f'<p class="count">{len(rows)} registrations</p><table class="registrations">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></section>"
    )


def _registrations(
    rng: Random, people: list[Person], again: list[Person]
) -> list[tuple[Person, bool]]:
    """Own people written as listed, plus repeats of ``again`` respelled, shuffled."""
    rows = [(p, False) for p in people] + [(p, True) for p in again]
    rng.shuffle(rows)
    return rows


def generate(rng: Random) -> Generated:
    first_title, second_title, wait_title = pools.unique(rng, agg.event_title, 3)
    wait_title = f"Waitlist: {wait_title}"
    people = _people(rng, rng.randint(9, 22))
    cut = rng.randint(3, len(people) - 5)
    first_own, second_own = people[:cut], people[cut:]
    both = rng.sample(first_own, rng.randint(1, min(4, len(first_own))))
    first_rows = _registrations(rng, first_own, rng.sample(first_own, rng.randint(0, 1)))
    second_rows = _registrations(rng, second_own, both)
    truth: list[str] = []
    for (_, mail, _), _ in first_rows + second_rows:
        if mail not in truth:
            truth.append(mail)
    strangers = _people(rng, rng.randint(2, 5))
    wait_rows = _registrations(rng, strangers, rng.sample(people, 2))
    order = rng.choice(_ORDERS)
    tables = [
        _table(rng, first_title, first_rows, order),
        _table(rng, second_title, second_rows, order),
        _table(rng, wait_title, wait_rows, order),
    ]
    rng.shuffle(tables)
    html = wrap_page(
        rng,
        title="Registrations",
        main_html="<h1>Event registrations</h1>" + "\n".join(tables),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Events", "Registrations"),
    )
    query = (
        f'List the distinct e-mail addresses registered in the tables "{first_title}" and '
        f'"{second_title}": read "{first_title}" top to bottom, then "{second_title}", and keep '
        "each address the first time it appears. The same address can be written in other "
        "letter case or with spaces around it; give every address trimmed and in lower case."
    )
    return Generated(html=html, query=query, query_template="dedupe_across_tables", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="dedupe_across_tables",
    category=Category.AGGREGATION,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Distinct lower-cased e-mails of two named tables, first-appearance order.",
    answer_schema=(
        "a list of strings, each distinct address once, trimmed and lower-case, in order of "
        'first appearance (e.g. ["ana.lee7@mail.example", "bo.kim12@inbox.example"])'
    ),
    generate=generate,
)
