"""Content for the encoding archetypes: accented names, mojibake, character references.

Every accented name here survives the classic mojibake round trip (UTF-8 bytes decoded as
Windows-1252 and back): letters whose UTF-8 bytes hit the five byte values cp1252 leaves
undefined (Á, Í, Ï, Ð, Ý, č, Ł, ...) are left out, so the garbled text is always what a
real double-decoding produces and always repairable with ``.encode("cp1252").decode()``.
"""

from __future__ import annotations

from random import Random

ACCENTED_FIRST = (
    "José",
    "Zoë",
    "François",
    "Søren",
    "Jürgen",
    "Inês",
    "Chloé",
    "Mónica",
    "Björn",
    "Agnès",
    "Raúl",
    "Dagný",
    "Ólafur",
    "Renée",
    "Noémie",
    "Anaïs",
    "Gaël",
    "Hélène",
    "Tomás",
    "Léa",
    "Øystein",
    "Åsa",
    "Émile",
    "Andrés",
)
ACCENTED_LAST = (
    "Núñez",
    "Müller",
    "Sørensen",
    "Gonçalves",
    "Lefèvre",
    "Ångström",
    "Dvořák",
    "Jørgensen",
    "Peña",
    "García",
    "Ibáñez",
    "Brontë",
    "Özdemir",
    "Şahin",
    "Weiß",
    "Fernández",
    "Böhm",
    "Håkansson",
    "Dupré",
    "Rodríguez",
    "Nyström",
    "Citroën",
    "Gauß",
    "Ramírez",
)


def accented_name(rng: Random) -> str:
    """A person's name whose surname always has a non-ASCII letter."""
    return f"{rng.choice(ACCENTED_FIRST)} {rng.choice(ACCENTED_LAST)}"


def mojibake(text: str) -> str:
    """``text`` as it reads after its UTF-8 bytes were decoded as Windows-1252.

    Raises ``UnicodeDecodeError`` for a letter whose bytes cp1252 cannot decode, so a pool
    entry that cannot be garbled for real fails loudly instead of producing a fake.
    """
    return text.encode("utf-8").decode("cp1252")


ACCENTED_WORDS = (
    "Crème",
    "Café",
    "Brûlée",
    "Naïve",
    "Façade",
    "Soirée",
    "Piñata",
    "Jalapeño",
    "Fiancé",
    "Über",
    "Déjà",
    "Entrée",
    "Rosé",
    "Résumé",
    "Öko",
    "Señor",
    "Fête",
    "Château",
)
PLAIN_WORDS = ("Noir", "Blanc", "Salt", "Pepper", "Garden", "Studio", "Club", "Bistro", "Atelier")


def entity_name(rng: Random) -> str:
    """A product or venue name with accents and usually an ampersand: ``Café & Noir``."""
    first, second = rng.sample(ACCENTED_WORDS, 2)
    third = rng.choice(PLAIN_WORDS)
    joiner = rng.choice((" & ", " & ", " ", " + "))
    return f"{first} {third}{joiner}{second}"


_NAMED = {"&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#39"}


def reference(rng: Random, ch: str) -> str:
    """One character written as a named, decimal or hex character reference."""
    named = _NAMED.get(ch)
    kind = rng.randrange(3)
    if kind == 0 and named is not None:
        return f"&{named};"
    if kind == 0 and ch in _LATIN_NAMES:
        return f"&{_LATIN_NAMES[ch]};"
    if kind == 1:
        return f"&#{ord(ch)};"
    return f"&#x{ord(ch):X};" if rng.random() < 0.5 else f"&#x{ord(ch):x};"


_LATIN_NAMES = {
    "é": "eacute",
    "è": "egrave",
    "ê": "ecirc",
    "ë": "euml",
    "à": "agrave",
    "â": "acirc",
    "ç": "ccedil",
    "ï": "iuml",
    "î": "icirc",
    "ñ": "ntilde",
    "ô": "ocirc",
    "ö": "ouml",
    "û": "ucirc",
    "ü": "uuml",
    "Ü": "Uuml",
    "Ö": "Ouml",
}
