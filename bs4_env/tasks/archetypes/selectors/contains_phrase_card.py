"""Name and session time of the person whose bio contains a phrase, in one named section.

Skill: ``:-soup-contains("phrase")`` (or a ``find`` with a text test) to pick the card
whose text contains a phrase, then reading other fields of that card; the section is found
by its exact heading.
Shortcuts resisted: the phrase crosses an inline tag (the company is a link or bold on
some cards), so a regex over the raw HTML misses it; other cards in the section mention
the same company with another team, or the same team at another company; a "past" section
(whose heading contains the target heading's word) has a card with exactly the phrase, so
"the first card containing the phrase" on the page is wrong when it comes first.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_TITLES = ("Speakers", "Workshop hosts", "Panelists", "Mentors")
_TEAMS = ("platform", "data", "design", "security", "mobile", "research", "payments", "search")
_HOBBIES = (
    "bakes sourdough on weekends",
    "runs a podcast about maps",
    "collects vintage synthesizers",
    "climbs whenever it is dry",
    "mentors first-time speakers",
    "writes a newsletter on tooling",
)
_ROLES = ("Staff engineer", "Engineering manager", "Designer", "Researcher", "Product lead")


def _card(rng: Random, name: str, team: str, company: str, time: str) -> str:
    company_html = rng.choice(
        (
            escape(company),
            f"<strong>{escape(company)}</strong>",
            f'<a href="/c/{token(rng)}">{escape(company)}</a>',
        )
    )
    first = name.split()[0]
    return (
        f'<li class="person-card" id="p-{token(rng, 6)}"><h3 class="name">{escape(name)}</h3>'
        f'<p class="role">{rng.choice(_ROLES)}</p><p class="bio">{escape(first)} leads the '
        f"{team} team at {company_html} and {rng.choice(_HOBBIES)}.</p>"
        f'<p class="slot">Session at <time datetime="2026-06-0{rng.randint(1, 9)}T{time}">'
        f"{time}</time> · Room {rng.choice('ABCDE')}</p></li>"
    )


def _time(rng: Random) -> str:
    return f"{rng.randint(9, 17):02d}:{rng.choice((0, 15, 30, 45)):02d}"


def generate(rng: Random) -> Generated:
    count = rng.randint(3, 6)
    names = pools.unique(rng, pools.person_name, count + 2)
    team, *other_teams = rng.sample(_TEAMS, 4)
    company, *other_companies = rng.sample(pools.COMPANIES, 4)
    phrase = f"the {team} team at {company}"
    # Look-alike cards share the team or the company, never both.
    pairs = [(team, company)] + [
        (rng.choice(other_teams), company)
        if rng.random() < 0.5
        else (team, rng.choice(other_companies))
        for _ in range(count - 1)
    ]
    rng.shuffle(pairs)
    times = [_time(rng) for _ in range(count + 2)]
    cards = [
        _card(rng, n, t, c, s)
        for n, (t, c), s in zip(names[:count], pairs, times[:count], strict=True)
    ]
    target = pairs.index((team, company))
    past = [
        _card(rng, names[count], team, company, times[count]),
        _card(rng, names[count + 1], rng.choice(other_teams), company, times[count + 1]),
    ]
    rng.shuffle(past)
    title = rng.choice(_TITLES)
    sections = [
        f'<section class="people"><h2>{title}</h2><ul class="cards">{"".join(cards)}</ul>'
        "</section>",
        f'<section class="people past"><h2>Past {title.lower()}</h2><ul class="cards">'
        f"{''.join(past)}</ul></section>",
    ]
    rng.shuffle(sections)
    event = f"{rng.choice(pools.CITIES)} {rng.choice(('DevDays', 'Summit', 'Conf', 'Forum'))}"
    main = f"<h1>{escape(event)}</h1><p>{escape(pools.sentence(rng, 12))}</p>" + "\n".join(sections)
    html = wrap_page(rng, title=event, main_html=main, difficulty=ARCHETYPE.difficulty)
    query = (
        f'In the "{title}" section, one person\'s bio mentions "{phrase}". What are that '
        "person's name and session time?"
    )
    truth = {"name": names[target], "time": times[target]}
    return Generated(html=html, query=query, query_template="contains_phrase_card", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="contains_phrase_card",
    category=Category.SELECTORS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Name and time of the card whose bio contains a phrase (:-soup-contains).",
    answer_schema=(
        'an object {"name": the person\'s name as displayed, "time": the session start time '
        'as displayed}, e.g. {"name": "Ada Costa", "time": "14:30"}'
    ),
    generate=generate,
)
