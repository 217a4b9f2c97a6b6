"""Per-row answer normalisers: how an answer to a labelled page is compared with its label.

Each normaliser maps a JSON value to a canonical form, or to ``None`` when the value is not
one of its kind (then it matches nothing). Accepted values are checked when the rows load
(a label that is no value of its kind is a bad row); answers are only ever compared, so a
canonical form never raises, whatever the model sent.

* ``text``: strings (also inside lists and objects) with whitespace runs collapsed and
  trimmed, Unicode NFC, and with ``casefold`` case-insensitive.
* ``decimal``: a number or a numeric string; currency signs and codes, spaces and a trailing
  ``,-`` are dropped, separators read as the row declares (``decimal_separator``) or as
  inferred, and the value compared as a ``Decimal`` ("220.00" equals "220").
* ``date``: an ISO 8601 date; an ISO datetime is compared on its date part.
* ``url``: resolved against the page's URL (the row's ``url``); scheme and host case, a
  default port and the fragment do not count. A URL on the neutral host the prompt showed is
  read as that path on the page's own origin.
* ``exact``: the JSON value itself (type included; ``1`` is not ``1.0`` nor ``"1"``).
* ``list`` and ``record``: a JSON list or object whose items or fields are compared under
  their own rules (``bs4_env.pages.structured_normalizers`` says exactly when one is right).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Hashable
from datetime import date, datetime
from decimal import Decimal
from urllib.parse import urljoin, urlsplit, urlunsplit

from bs4_env.grading.normalize import normalize
from bs4_env.pages.rule import Canonical, NormalizationError, Normalizer, clipped_repr
from bs4_env.pages.structured_normalizers import MAX_RULE_DEPTH, parse_list, parse_record
from bs4_env.tasks.model import JSONValue, Normalization

SCALAR_KINDS = ("text", "decimal", "date", "url", "exact")
STRUCTURED = {"list": parse_list, "record": parse_record}
KINDS = (*SCALAR_KINDS, *STRUCTURED)
SEPARATORS = (".", ",")
MAX_VALUE_CHARS = 2_000
"""Longer strings are no value of any scalar kind (keeps parsing linear and cheap)."""

__all__ = [
    "KINDS",
    "Canonical",
    "NormalizationError",
    "Normalizer",
    "canonical_url",
    "parse_normalization",
]


# --- text and exact -----------------------------------------------------------------------


def _text(casefold: bool, unordered_lists: bool) -> Canonical:
    rule = Normalization(casefold=casefold, unordered_lists=unordered_lists)

    def canonical(value: JSONValue) -> Hashable | None:
        if value is None:
            return None
        try:
            return json.dumps(normalize(value, rule), sort_keys=True, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            return None

    return canonical


def _typed(value: JSONValue) -> JSONValue:
    """``value`` with each scalar tagged by its JSON type, so ``1``, ``1.0`` and ``true``
    stay apart when compared."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return [type(value).__name__, value]


def _exact(value: JSONValue) -> Hashable | None:
    if value is None:
        return None
    try:
        return json.dumps(_typed(value), sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None


# --- decimal ------------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
_GROUPED = re.compile(r"\d{1,3}(?:S\d{3})+")
_EDGE_WORD = re.compile(r"^[^\W\d_]+\.?|[^\W\d_]+\.?$")
_ZERO_CENTS = re.compile(r"[.,][-\u2013\u2014]$")
_GROUP_MARKS = "'\u2019"


def _digits_only(text: str) -> str:
    """Spaces, currency signs and a leading or trailing word (a code: EUR, US, kr, Rs.)
    removed."""
    kept = "".join(
        ch
        for ch in text
        if not ch.isspace() and unicodedata.category(ch) != "Sc" and ch not in _GROUP_MARKS
    )
    previous = None
    while previous != kept:
        previous, kept = kept, _EDGE_WORD.sub("", kept)
    return _ZERO_CENTS.sub("", kept)


def _read(text: str, decimal_separator: str) -> Decimal | None:
    """``text`` read with ``decimal_separator`` as the decimal mark and the other as a
    thousands separator (which must then group digits by three)."""
    group = "," if decimal_separator == "." else "."
    sign = text[0] if text[:1] in "+-" else ""
    whole, _, fraction = text[len(sign) :].partition(decimal_separator)
    if group in fraction or (decimal_separator in fraction):
        return None
    if group in whole:
        if not _GROUPED.fullmatch(whole.replace(group, "S")):
            return None
        whole = whole.replace(group, "")
    plain = f"{sign}{whole}" + (f".{fraction}" if fraction else "")
    return Decimal(plain) if _NUMBER.fullmatch(plain) else None


def _inferred_separator(text: str) -> str:
    """The decimal mark of ``text`` when none is declared: the last mark when both occur; a
    mark that occurs once is decimal unless exactly three digits follow it and it does not
    follow a lone 0 ("1,234" is 1234, "0,125" and "3,56" are decimals); repeated, a mark
    only groups."""
    if "." in text and "," in text:
        return "." if text.rindex(".") > text.rindex(",") else ","
    for mark in SEPARATORS:
        if text.count(mark) > 1:
            return "," if mark == "." else "."
        if text.count(mark) == 1:
            whole, fraction = text.split(mark)
            grouping = len(fraction) == 3 and whole.lstrip("+-") not in ("0", "")
            return ("," if mark == "." else ".") if grouping else mark
    return "."


def _plain_decimal(value: JSONValue) -> Hashable | None:
    """A label: a JSON number, or a string of one with "." as the decimal mark."""
    if isinstance(value, str):
        text = value.strip()
        return Decimal(text).normalize() if _NUMBER.fullmatch(text) else None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _decimal(None)(value)
    return None


def _decimal(decimal_separator: str | None) -> Canonical:
    def canonical(value: JSONValue) -> Hashable | None:
        if isinstance(value, bool) or value is None:
            return None
        if isinstance(value, int):
            return Decimal(value).normalize()
        if isinstance(value, float):
            finite = value == value and abs(value) != float("inf")
            return Decimal(repr(value)).normalize() if finite else None
        if not isinstance(value, str) or len(value) > MAX_VALUE_CHARS:
            return None
        text = _digits_only(value)
        if not text:
            return None
        if decimal_separator is not None:
            declared = _read(text, decimal_separator)
            if declared is not None:
                return declared.normalize()
        found = _read(text, _inferred_separator(text))
        return found.normalize() if found is not None else None

    return canonical


# --- date and url -------------------------------------------------------------------------


def _date(value: JSONValue) -> Hashable | None:
    if not isinstance(value, str) or len(value) > 64:
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
        return datetime.fromisoformat(text.replace("z", "Z")).date()
    except ValueError:
        return None


DEFAULT_PORTS = {"http": 80, "https": 443}


def canonical_url(value: str, base: str) -> str | None:
    """``value`` resolved against ``base``; scheme and host lower case, no default port, no
    fragment, ``/`` for an empty path; ``None`` when it is no http(s) URL."""
    try:
        parts = urlsplit(urljoin(base, value.strip()))
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host:
        return None
    netloc = host if port in (None, DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def _url(page_url: str, shown_url: str) -> Canonical:
    """Relative references resolve against the page's own URL; an absolute URL on the
    neutral origin the prompt showed is read as the same path on the page's origin."""
    shown_origin = canonical_url("/", shown_url) if shown_url != page_url else None

    def canonical(value: JSONValue) -> Hashable | None:
        if not isinstance(value, str) or len(value) > MAX_VALUE_CHARS:
            return None
        found = canonical_url(value, page_url)
        if found is not None and shown_origin is not None and found.startswith(shown_origin):
            return canonical_url(found[len(shown_origin) - 1 :], page_url)
        return found

    return canonical


# --- the row's rule -----------------------------------------------------------------------

_OPTIONS: dict[str, dict[str, tuple[type, ...]]] = {
    "text": {"casefold": (bool,), "unordered_lists": (bool,)},
    "decimal": {"decimal_separator": (str,)},
    "date": {},
    "url": {},
    "exact": {},
}


def parse_normalization(spec: object, page_url: str, shown_url: str) -> Normalizer:
    """A row's ``normalization`` (a kind name, or ``{"kind": ..., options}``) as a rule."""
    return _parse(spec, page_url, shown_url, 0)


def _parse(spec: object, page_url: str, shown_url: str, depth: int) -> Normalizer:
    if isinstance(spec, str):
        spec = {"kind": spec}
    if not isinstance(spec, dict) or not isinstance(spec.get("kind"), str):
        raise NormalizationError(
            f'normalization must be a kind name or {{"kind": ...}}, got {clipped_repr(spec)}'
        )
    kind = spec["kind"]
    if kind in STRUCTURED:
        if depth >= MAX_RULE_DEPTH:
            raise NormalizationError(f"lists and records nest at most {MAX_RULE_DEPTH} deep")
        return STRUCTURED[kind](spec, lambda part: _parse(part, page_url, shown_url, depth + 1))
    if kind not in _OPTIONS:
        raise NormalizationError(f"unknown normaliser {kind!r}; valid: {list(KINDS)}")
    options = {key: value for key, value in spec.items() if key != "kind"}
    for key, value in options.items():
        allowed = _OPTIONS[kind].get(key)
        if allowed is None:
            valid = sorted(_OPTIONS[kind])
            raise NormalizationError(f"normaliser {kind!r} has no option {key!r}; valid: {valid}")
        if isinstance(value, bool) is not (allowed == (bool,)) or not isinstance(value, allowed):
            raise NormalizationError(f"option {key!r} of {kind!r} must be {allowed[0].__name__}")
    separator = options.get("decimal_separator")
    if separator is not None and separator not in SEPARATORS:
        raise NormalizationError(f"decimal_separator must be one of {list(SEPARATORS)}")
    canonical: Canonical
    label_canonical: Canonical | None = None
    if kind == "text":
        canonical = _text(bool(options.get("casefold")), bool(options.get("unordered_lists")))
    elif kind == "decimal":
        canonical, label_canonical = _decimal(separator), _plain_decimal
    elif kind == "date":
        canonical = _date
    elif kind == "url":
        canonical = _url(page_url, shown_url)
    else:
        canonical = _exact
    return Normalizer(kind, canonical, options, label_canonical or canonical)
