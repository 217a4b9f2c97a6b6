"""Kinds of recordings (recipe videos, conference talks, podcast episodes) and their titles.

Each kind says which word the request uses for it, which two facts it can state
(``media_facts``), which players it comes in, what filler its speakers say and its
chapter titles. Filler lines never contain a fact kind's keyword with a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from bs4_env.tasks.html import pools


@dataclass(frozen=True)
class Show:
    """A kind of recording: its request word, the facts it states and its players."""

    medium: str
    plural: str
    facts: tuple[str, str]
    players: tuple[str, str]
    filler: tuple[str, ...]
    chapters: tuple[str, ...]


SHOWS = {
    "recipe": Show(
        medium="video",
        plural="videos",
        facts=("oven temperature", "baking time"),
        players=("video", "embed"),
        filler=(
            "Welcome back to the kitchen.",
            "This one is easier than it looks.",
            "You only need a few things for it.",
            "Mix everything in a big bowl.",
            "Shape it gently and do not overwork it.",
            "Drizzle some olive oil over the top.",
            "Thanks for cooking along with me.",
        ),
        chapters=("Intro", "Ingredients", "Mixing", "Shaping", "Serving", "Tasting"),
    ),
    "talk": Show(
        medium="talk",
        plural="talks",
        facts=("minimum supported version", "announced launch date"),
        players=("video", "embed"),
        filler=(
            "Thanks for having me here today.",
            "Let me start with a quick demo.",
            "This is the part people usually ask about.",
            "The config file lives next to the app.",
            "We rewrote the scheduler last year.",
            "Questions at the end, please.",
            "Here is what went wrong the first time.",
        ),
        chapters=("Intro", "Live demo", "Architecture", "Benchmarks", "Roadmap", "Q&A"),
    ),
    "podcast": Show(
        medium="episode",
        plural="episodes",
        facts=("listener discount code", "announced launch date"),
        players=("audio", "embed"),
        filler=(
            "Welcome back to the show.",
            "My guest today has been building things for years.",
            "Thanks to everyone who wrote in this week.",
            "We talk about habits, tools and a few mistakes.",
            "That is all for this week.",
            "Grab a coffee, this one runs long.",
            "We recorded this one in person.",
        ),
        chapters=("Cold open", "Guest intro", "Main interview", "Listener mail", "Outro"),
    ),
}
_DISHES = (
    *("Focaccia", "Sourdough Loaf", "Banana Bread", "Apple Crumble", "Granola", "Lasagne"),
    *("Shortbread", "Cornbread", "Rye Bread", "Fruit Tart", "Brownies", "Flatbread"),
)
_STYLES = ("Weeknight", "Rustic", "Easy", "Crispy", "Classic", "Overnight", "Sunday", "Honey")
_TOPICS = (
    *("Zero-downtime deploys", "Scaling queues", "Testing at speed", "Observability"),
    *("Plugins done right", "Edge caching", "Type-safe configs", "Migrations"),
)
_THEMES = (
    *("Slow mornings", "Building in public", "Tiny teams", "Side projects", "Burnout"),
    *("Pricing", "Remote work", "First hires", "Open source money", "Quitting well"),
)


def title_of(rng: Random, kind: str) -> str:
    """A recording title of ``kind``: "Rustic Focaccia", "Edge caching with Nova", "Ep. 41: ..."."""
    if kind == "recipe":
        return f"{rng.choice(_STYLES)} {rng.choice(_DISHES)}"
    if kind == "talk":
        return f"{rng.choice(_TOPICS)} with {rng.choice(pools.ADJECTIVES)}"
    return f"Ep. {rng.randint(12, 240)}: {rng.choice(_THEMES)}"
