"""Facts a recording states (an oven temperature, a version, a code, a date), and their decoys.

Each fact kind comes with the sentence a speaker would say, the line show notes would
print, a chapter title and a show-notes pointer that name the subject without the value,
and decoys: values of the same shape about something else ("the water should be about
35 °C" beside an oven temperature, an expired code beside the listener code). Every
sentence or line that states the fact contains the kind's ``keyword`` and a value matching
its ``pattern``; no decoy, filler or other kind's sentence does (``tests`` check it), so a
fact is stated unambiguously wherever it is stated at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import between, sample


@dataclass(frozen=True)
class Fact:
    """One stated fact: what the request calls it, its value and how a page states it."""

    phrase: str
    value: str
    sentence: str
    note: str
    teaser: str
    chapter: str
    pointer: str
    decoy_sentences: tuple[str, ...]
    decoy_notes: tuple[str, ...]


@dataclass(frozen=True)
class Rule:
    """How a statement of one fact kind reads: a keyword and a value shape in one sentence."""

    keyword: re.Pattern[str]
    pattern: re.Pattern[str]


RULES: dict[str, Rule] = {
    phrase: Rule(re.compile(keyword, re.IGNORECASE), re.compile(pattern))
    for phrase, keyword, pattern in (
        ("oven temperature", r"\boven\b", r"\d+ °[CF]"),
        ("baking time", r"\bbak(?:e|es|ing)\b", r"\d+ minutes"),
        ("minimum supported version", r"at least|or newer|minimum", r"v\d+\.\d+\.\d+"),
        ("listener discount code", r"checkout|discount", r"\b[A-Z]{3,}\d{2}\b"),
        ("announced launch date", r"launch", r"\d{1,2} [A-Z][a-z]+ \d{4}"),
    )
}
"""Per fact phrase: what every statement of it (and nothing else on its page) contains."""


def _distinct(rng: Random, make: Callable[[Random], str], taken: str, n: int) -> list[str]:
    return [v for v in pools.unique(rng, make, n + 1) if v != taken][:n]


def _fill(rng: Random, templates: tuple[str, ...], values: list[str]) -> tuple[str, ...]:
    chosen = sample(rng, templates, len(values))
    return tuple(t.format(v) for t, v in zip(chosen, values, strict=True))


def _oven(rng: Random) -> Fact:
    unit = rng.choice(("°C", "°F"))
    low, high, water, core, butter = (
        (180, 250, (30, 40), (90, 98), (18, 22))
        if unit == "°C"
        else (350, 480, (86, 104), (190, 209), (64, 72))
    )
    value = f"{rng.randrange(low, high + 1, 5)} {unit}"
    decoys = [f"{rng.randint(*r)} {unit}" for r in sample(rng, (water, core, butter), 2)]
    return Fact(
        phrase="oven temperature",
        value=value,
        sentence=rng.choice(
            (
                f"Preheat the oven to {value} before you start shaping.",
                f"Get the oven up to {value}, it has to be properly hot.",
                f"Heat the oven to {value} with a tray inside.",
            )
        ),
        note=rng.choice((f"Oven: {value}", f"Oven temperature: {value}")),
        teaser=f"oven at {value}",
        chapter="Oven temperature and timing",
        pointer="Oven temperature: given in the video",
        decoy_sentences=_fill(
            rng,
            (
                "The water should be about {} when it goes in.",
                "Take it out when the middle reads {}.",
                "Let the butter warm up to {} first.",
            ),
            decoys,
        ),
        decoy_notes=_fill(rng, ("Water: {}", "Internal temperature: {}", "Butter: {}"), decoys),
    )


def _minutes(rng: Random) -> str:
    return f"{rng.randint(5, 120)} minutes"


def _baking(rng: Random) -> Fact:
    value = f"{rng.randint(15, 75)} minutes"
    decoys = _distinct(rng, _minutes, value, 2)
    return Fact(
        phrase="baking time",
        value=value,
        sentence=rng.choice(
            (
                f"Bake it for {value}, until the top is deep golden.",
                f"It needs to bake for {value}.",
                f"Then it bakes for {value} without opening the door.",
            )
        ),
        note=rng.choice((f"Baking time: {value}", f"Bake: {value}")),
        teaser=f"bakes for {value}",
        chapter="Baking and cooling",
        pointer="Baking time: shown in the video",
        decoy_sentences=_fill(
            rng,
            (
                "Let the dough rest for {}.",
                "Leave it to proof for {} somewhere warm.",
                "Give it {} to cool before slicing.",
            ),
            decoys,
        ),
        decoy_notes=_fill(rng, ("Resting: {}", "Proofing: {}", "Cooling: {}"), decoys),
    )


def _version_value(rng: Random) -> str:
    return f"v{between(rng, 1, 9)}.{between(rng, 0, 20)}.{between(rng, 0, 15)}"


def _version(rng: Random) -> Fact:
    value = _version_value(rng)
    decoys = _distinct(rng, _version_value, value, 2)
    return Fact(
        phrase="minimum supported version",
        value=value,
        sentence=rng.choice(
            (
                f"Everything I show today needs at least {value}.",
                f"You will want {value} or newer for the new API.",
                f"The minimum supported version is {value}.",
            )
        ),
        note=rng.choice((f"Minimum version: {value}", f"Works with {value} or newer")),
        teaser=f"needs {value}",
        chapter="Which version you need",
        pointer="Version requirements: covered in the talk",
        decoy_sentences=_fill(
            rng,
            (
                "Back in {} this still took a plugin.",
                "The demo app was built with {}.",
                "The {} release fixed the memory leak we kept hitting.",
            ),
            decoys,
        ),
        decoy_notes=_fill(
            rng, ("Latest release: {}", "Demo built with {}", "Slides use {}"), decoys
        ),
    )


def _code_value(rng: Random) -> str:
    return f"{rng.choice(pools.ADJECTIVES).upper()}{rng.randrange(10, 55, 5)}"


def _code(rng: Random) -> Fact:
    value = _code_value(rng)
    decoys = _distinct(rng, _code_value, value, 2)
    return Fact(
        phrase="listener discount code",
        value=value,
        sentence=rng.choice(
            (
                f"Use the code {value} at checkout for a listener discount.",
                f"Listeners get a discount with the code {value} at checkout.",
            )
        ),
        note=rng.choice((f"Listener discount code: {value}", f"Discount: {value} at checkout")),
        teaser=f"code {value}",
        chapter="Sponsor message and listener offer",
        pointer="Listener offer: the code is read out in the episode",
        decoy_sentences=_fill(
            rng,
            (
                "Last season the code was {}, and that one has expired now.",
                "The spring promo {} no longer works, sorry.",
            ),
            decoys,
        ),
        decoy_notes=_fill(rng, ("Expired: {}", "Old promo (ended): {}"), decoys),
    )


def date_text(rng: Random) -> str:
    """A date as people write it in prose, e.g. "14 March 2027"."""
    return f"{between(rng, 1, 28)} {rng.choice(pools.MONTHS)} {between(rng, 2026, 2028)}"


def _launch(rng: Random) -> Fact:
    value = date_text(rng)
    decoys = _distinct(rng, date_text, value, 2)
    return Fact(
        phrase="announced launch date",
        value=value,
        sentence=rng.choice(
            (
                f"The launch is set for {value}.",
                f"We are launching on {value}, so mark your calendar.",
                f"It launches on {value}.",
            )
        ),
        note=rng.choice((f"Launch date: {value}", f"Launches {value}")),
        teaser=f"launches {value}",
        chapter="The launch date",
        pointer="Launch details: announced in the recording",
        decoy_sentences=_fill(
            rng,
            ("Registration closes on {}.", "The beta opened on {}.", "We recorded this on {}."),
            decoys,
        ),
        decoy_notes=_fill(
            rng, ("Recorded: {}", "Beta opened: {}", "Registration closes: {}"), decoys
        ),
    )


FACTS: dict[str, Callable[[Random], Fact]] = {
    "oven temperature": _oven,
    "baking time": _baking,
    "minimum supported version": _version,
    "listener discount code": _code,
    "announced launch date": _launch,
}
"""Fact kinds by the phrase the request uses."""
