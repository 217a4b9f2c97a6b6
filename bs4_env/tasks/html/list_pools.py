"""Content for the list archetypes: specification terms and values, and list numbering.

Spec values are drawn from wide ranges (numbers with units, colours, materials) so no value
is common across seeds; multi-valued terms (ports, colours, box contents) draw a random
subset in random order. ``displayed_numbers`` is the HTML rule for the number a browser
shows beside each item of an ``<ol>`` (``start``, ``reversed``, ``<li value>``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from types import MappingProxyType

from bs4_env.tasks.html import pools

COLOURS = (
    "Graphite",
    "Sand",
    "Ocean blue",
    "Forest green",
    "Chalk white",
    "Midnight",
    "Terracotta",
    "Mustard",
    "Slate grey",
    "Rose gold",
    "Olive",
    "Coral red",
    "Ivory",
    "Charcoal",
    "Sky blue",
    "Plum",
    "Copper",
    "Mint",
    "Burgundy",
    "Stone",
)
MATERIALS = (
    "Aluminium",
    "Recycled plastic",
    "Stainless steel",
    "Bamboo",
    "Oak veneer",
    "Tempered glass",
    "Silicone",
    "Ripstop nylon",
    "Ceramic",
    "Carbon fibre",
    "Cork",
    "Walnut",
    "Polycarbonate",
    "Felt",
    "Brass",
    "Canvas",
    "Leather",
    "Borosilicate glass",
    "Cast iron",
    "Linen",
)


def _weight(rng: Random) -> str:
    if rng.random() < 0.5:
        return f"{rng.randint(80, 990)} g"
    return f"{rng.randint(11, 95) / 10} kg"


def _dimensions(rng: Random) -> str:
    return f"{rng.randint(5, 60)} × {rng.randint(5, 60)} × {rng.randint(1, 30)} cm"


SINGLE_VALUED: MappingProxyType[str, Callable[[Random], str]] = MappingProxyType(
    {
        "Weight": _weight,
        "Dimensions": _dimensions,
        "Battery life": lambda rng: f"{rng.randint(4, 60)} h",
        "Power": lambda rng: f"{rng.randint(5, 240)} W",
        "Capacity": lambda rng: f"{rng.randint(3, 60) / 10} L",
        "Warranty": lambda rng: f"{rng.randint(6, 60)} months",
        "Model number": pools.sku,
        "Colour": lambda rng: rng.choice(COLOURS),
        "Material": lambda rng: rng.choice(MATERIALS),
        "Noise level": lambda rng: f"{rng.randint(18, 65)} dB",
    }
)
"""Spec terms with one value each, and how to draw a value."""

MULTI_VALUED: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {
        "Ports": (
            "USB-C",
            "USB-A 3.2",
            "HDMI 2.1",
            "Thunderbolt 4",
            "DisplayPort 1.4",
            "3.5 mm jack",
            "SD card reader",
            "Ethernet",
            "Micro-USB",
        ),
        "Connectivity": (
            "Wi-Fi 6E",
            "Wi-Fi 5",
            "Bluetooth 5.3",
            "Bluetooth 4.2",
            "NFC",
            "Zigbee",
            "Thread",
            "LTE",
            "AirPlay 2",
        ),
        "Colours": COLOURS,
        "In the box": (
            "Charger",
            "USB-C cable",
            "Quick start guide",
            "Carry case",
            "Wall mount",
            "Spare filter",
            "Cleaning cloth",
            "Remote control",
            "Power adapter",
            "Stickers",
        ),
        "Certifications": ("CE", "FCC", "RoHS", "IP54", "IP67", "UKCA", "Energy Star", "TÜV"),
        "Compatible with": (
            "Android",
            "iOS",
            "Windows",
            "macOS",
            "Linux",
            "ChromeOS",
            "Alexa",
            "Google Home",
        ),
    }
)
"""Spec terms that usually carry several values (one ``<dd>`` each)."""

ALIASES: MappingProxyType[str, str] = MappingProxyType(
    {
        "Ports": "Connectors",
        "Connectivity": "Wireless",
        "Colours": "Finishes",
        "In the box": "Package contents",
        "Certifications": "Approvals",
        "Compatible with": "Works with",
    }
)
"""A second term some sites list in the same group (two ``<dt>`` sharing its ``<dd>``\\s)."""


def multi_values(rng: Random, term: str, low: int = 1, high: int = 4) -> list[str]:
    """A random ordered subset of the term's values."""
    return rng.sample(MULTI_VALUED[term], rng.randint(low, high))


def displayed_numbers(
    count: int, start: int | None, reversed_: bool, values: Sequence[int | None]
) -> list[int]:
    """The ordinal a browser shows beside each of ``count`` items of an ``<ol>``.

    Follows the HTML list-numbering rule: the first item gets ``start`` (default 1, or the
    number of items when ``reversed``), each later one the previous value plus (or minus)
    one, and an item with a ``value`` attribute shows that value and restarts the count.
    """
    if len(values) != count:
        raise ValueError(f"{len(values)} values for {count} items")
    step = -1 if reversed_ else 1
    first = start if start is not None else (count if reversed_ else 1)
    shown: list[int] = []
    for value in values:
        if value is not None:
            shown.append(value)
        elif shown:
            shown.append(shown[-1] + step)
        else:
            shown.append(first)
    return shown
