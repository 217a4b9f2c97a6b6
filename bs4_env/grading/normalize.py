"""Compare an answer with the truth under an archetype's declared normalization only."""

from __future__ import annotations

import json
import re
import sys
import unicodedata

from bs4_env.tasks.model import JSONValue, Normalization

_SPACE = re.compile(r"\s+")


def normalize(value: JSONValue, norm: Normalization) -> JSONValue:
    """A canonical form: strings per ``norm``; lists sorted only if ``unordered_lists``."""
    if isinstance(value, str):
        text = unicodedata.normalize("NFC", value) if norm.unicode_nfc else value
        if norm.collapse_whitespace:
            text = _SPACE.sub(" ", text).strip()
        return text.casefold() if norm.casefold else text
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int) and abs(value) > sys.float_info.max:
        return value  # too large for a float: compared exactly (float() would overflow)
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, list):
        items = [normalize(item, norm) for item in value]
        if norm.unordered_lists:
            items.sort(key=lambda item: json.dumps(item, sort_keys=True, ensure_ascii=False))
        return items
    if isinstance(value, dict):
        return {key: normalize(item, norm) for key, item in value.items()}
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def answers_match(answer: JSONValue, truth: JSONValue, norm: Normalization) -> bool:
    """True when both normalize to the same value (no key aliases, no type coercion)."""
    try:
        return bool(normalize(answer, norm) == normalize(truth, norm))
    except TypeError:
        return False
