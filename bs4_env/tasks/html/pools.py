"""Content pools. Combinations are large so no single answer is common across seeds."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from bs4_env.tasks.rng import between

ADJECTIVES = (
    "Aero",
    "Arctic",
    "Atlas",
    "Aurora",
    "Basalt",
    "Birch",
    "Bolt",
    "Cedar",
    "Cobalt",
    "Comet",
    "Coral",
    "Crimson",
    "Delta",
    "Dune",
    "Echo",
    "Ember",
    "Fable",
    "Falcon",
    "Fern",
    "Flint",
    "Frost",
    "Garnet",
    "Glacier",
    "Granite",
    "Harbor",
    "Hazel",
    "Indigo",
    "Iris",
    "Jade",
    "Juniper",
    "Kestrel",
    "Lagoon",
    "Lumen",
    "Lunar",
    "Maple",
    "Meadow",
    "Mesa",
    "Nimbus",
    "Nova",
    "Oak",
    "Onyx",
    "Opal",
    "Orbit",
    "Pebble",
    "Pine",
    "Pixel",
    "Quartz",
    "Raven",
    "Ridge",
    "Sable",
    "Sage",
    "Sierra",
    "Slate",
    "Solar",
    "Spruce",
    "Summit",
    "Tidal",
    "Titan",
    "Vale",
    "Willow",
)
NOUNS = (
    "Backpack",
    "Blender",
    "Camera",
    "Chair",
    "Charger",
    "Desk Lamp",
    "Drone",
    "Earbuds",
    "Kettle",
    "Keyboard",
    "Monitor",
    "Mouse",
    "Notebook",
    "Pan",
    "Projector",
    "Router",
    "Scanner",
    "Speaker",
    "Stand",
    "Tablet",
    "Tent",
    "Thermos",
    "Toaster",
    "Tripod",
    "Watch",
    "Webcam",
    "Headset",
    "Jacket",
    "Sneakers",
    "Umbrella",
    "Wallet",
    "Bottle",
    "Grinder",
    "Heater",
    "Fan",
    "Mixer",
)
SUFFIXES = ("", " Pro", " Mini", " Max", " Lite", " 2", " X", " Plus", " S", " Air", " Duo")
FIRST_NAMES = (
    "Ada",
    "Alan",
    "Amara",
    "Ana",
    "Bao",
    "Bruno",
    "Carmen",
    "Chen",
    "Dara",
    "Diego",
    "Elif",
    "Emeka",
    "Farah",
    "Felix",
    "Grace",
    "Hana",
    "Hugo",
    "Ines",
    "Ivan",
    "Jonas",
    "Kai",
    "Keiko",
    "Lars",
    "Leila",
    "Luca",
    "Maya",
    "Mateo",
    "Nadia",
    "Nils",
    "Omar",
    "Priya",
    "Quinn",
    "Rafael",
    "Rosa",
    "Sami",
    "Sofia",
    "Tariq",
    "Thea",
    "Umar",
    "Vera",
    "Wen",
    "Yara",
    "Yusuf",
    "Zoe",
)
LAST_NAMES = (
    "Abara",
    "Berg",
    "Costa",
    "Dubois",
    "Eriksen",
    "Fischer",
    "Garcia",
    "Haddad",
    "Ishikawa",
    "Jensen",
    "Kowalski",
    "Laurent",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quintero",
    "Rossi",
    "Schmidt",
    "Tanaka",
    "Uddin",
    "Varga",
    "Weber",
    "Xu",
    "Yilmaz",
    "Zhang",
    "Novak",
    "Silva",
    "Lindqvist",
    "Mensah",
    "Oyelaran",
    "Park",
    "Reyes",
    "Santos",
    "Takahashi",
    "Virtanen",
)
CITIES = (
    "Aarhus",
    "Accra",
    "Austin",
    "Bergen",
    "Bilbao",
    "Bogotá",
    "Brno",
    "Busan",
    "Cork",
    "Curitiba",
    "Dakar",
    "Denver",
    "Dublin",
    "Gdańsk",
    "Geneva",
    "Graz",
    "Hanoi",
    "Kraków",
    "Kyoto",
    "Leeds",
    "Lille",
    "Lyon",
    "Malmö",
    "Mombasa",
    "Montréal",
    "Nagoya",
    "Osaka",
    "Oslo",
    "Porto",
    "Quito",
    "Rotterdam",
    "Seville",
    "Tartu",
    "Tbilisi",
    "Turin",
    "Utrecht",
    "Valencia",
    "Vilnius",
    "Zagreb",
)
COMPANIES = (
    "Acme",
    "Brightline",
    "Cobalt Labs",
    "Driftwood",
    "Everpine",
    "Foxglove",
    "Greyhaven",
    "Helix",
    "Ironbark",
    "Juniper & Co",
    "Keystone",
    "Larkspur",
    "Moonrise",
    "Northwind",
    "Oakridge",
    "Pinecrest",
    "Quillfeather",
    "Redwood",
    "Stonebridge",
    "Thistle",
    "Umbra",
)
WORDS = (
    "adaptive",
    "balanced",
    "compact",
    "durable",
    "efficient",
    "flexible",
    "gentle",
    "handy",
    "lightweight",
    "modular",
    "portable",
    "quiet",
    "reliable",
    "robust",
    "sleek",
    "smart",
    "sturdy",
    "versatile",
    "waterproof",
    "wireless",
    "everyday",
    "travel",
    "outdoor",
    "studio",
    "design",
    "battery",
    "comfort",
    "finish",
    "warranty",
    "delivery",
    "storage",
    "setup",
)
DEPARTMENTS = ("Engineering", "Sales", "Support", "Finance", "Design", "Research", "Legal", "Ops")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


# The hottest pool draws of page generation write ``rng.choice`` out: the same draw as
# ``Random._randbelow`` (``getrandbits(len(pool).bit_length())``, drawn again while it is
# out of range), so every page keeps its bytes, without the three-call chain per word.
# tests/test_rng_draws.py holds each to ``rng.choice``, draw for draw.
_ADJECTIVES_N, _NOUNS_N, _SUFFIXES_N = len(ADJECTIVES), len(NOUNS), len(SUFFIXES)
_ADJECTIVES_K, _NOUNS_K = _ADJECTIVES_N.bit_length(), _NOUNS_N.bit_length()
_SUFFIXES_K = _SUFFIXES_N.bit_length()
_FIRST_N, _LAST_N = len(FIRST_NAMES), len(LAST_NAMES)
_FIRST_K, _LAST_K = _FIRST_N.bit_length(), _LAST_N.bit_length()
_WORDS_N = len(WORDS)
_WORDS_K = _WORDS_N.bit_length()
_SKU_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
_SKU_N, _SKU_K = len(_SKU_LETTERS), len(_SKU_LETTERS).bit_length()


def product_name(rng: Random) -> str:
    getrandbits = rng.getrandbits
    a = getrandbits(_ADJECTIVES_K)
    while a >= _ADJECTIVES_N:
        a = getrandbits(_ADJECTIVES_K)
    b = getrandbits(_NOUNS_K)
    while b >= _NOUNS_N:
        b = getrandbits(_NOUNS_K)
    c = getrandbits(_SUFFIXES_K)
    while c >= _SUFFIXES_N:
        c = getrandbits(_SUFFIXES_K)
    return f"{ADJECTIVES[a]} {NOUNS[b]}{SUFFIXES[c]}"


def person_name(rng: Random) -> str:
    getrandbits = rng.getrandbits
    a = getrandbits(_FIRST_K)
    while a >= _FIRST_N:
        a = getrandbits(_FIRST_K)
    b = getrandbits(_LAST_K)
    while b >= _LAST_N:
        b = getrandbits(_LAST_K)
    return f"{FIRST_NAMES[a]} {LAST_NAMES[b]}"


def price(rng: Random, low: int = 5, high: int = 900) -> str:
    """A price string with cents, e.g. ``"$123.45"``."""
    return f"${between(rng, low, high)}.{between(rng, 0, 99):02d}"


def sentence(rng: Random, words: int = 8) -> str:
    getrandbits = rng.getrandbits
    chosen = []
    for _ in range(words):
        r = getrandbits(_WORDS_K)
        while r >= _WORDS_N:
            r = getrandbits(_WORDS_K)
        chosen.append(WORDS[r])
    return " ".join(chosen).capitalize() + "."


def sku(rng: Random) -> str:
    getrandbits, letters = rng.getrandbits, ""
    for _ in range(3):
        r = getrandbits(_SKU_K)
        while r >= _SKU_N:
            r = getrandbits(_SKU_K)
        letters += _SKU_LETTERS[r]
    return f"{letters}-{between(rng, 1000, 99999)}"


def date_iso(rng: Random) -> str:
    return f"{between(rng, 2019, 2026)}-{between(rng, 1, 12):02d}-{between(rng, 1, 28):02d}"


def unique(rng: Random, make: Callable[[Random], str], n: int, attempts: int = 1000) -> list[str]:
    """``n`` distinct values drawn from ``make`` (raises if it cannot find enough)."""
    seen: dict[str, None] = {}
    for _ in range(attempts):
        seen.setdefault(make(rng), None)
        if len(seen) == n:
            return list(seen)
    raise ValueError(f"could not draw {n} distinct values")
