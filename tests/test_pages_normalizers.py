"""Per-row normalisers: properties over seeded random values, the cases real pages need, and
that no grading call raises on any answer."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from random import Random
from typing import Any

import pytest

from bs4_env.pages.accepted import AcceptedAnswers
from bs4_env.pages.normalizers import (
    NormalizationError,
    Normalizer,
    canonical_url,
    parse_normalization,
)

PAGE = "https://shop.example.com/p/oak-desk?id=7"
SHOWN = "https://page.example/"
CASES = 300


def rule(spec: object, page: str = PAGE, shown: str = SHOWN) -> Normalizer:
    return parse_normalization(spec, page, shown)


def test_decimal_cases_from_real_pages() -> None:
    decimal = rule("decimal")
    comma = rule({"kind": "decimal", "decimal_separator": ","})
    assert decimal.same("220.00", "220") and decimal.same(220, "220.00")
    assert comma.same("3,56", "3.56") and decimal.same("3,56", "3.56")
    assert decimal.same("€ 1.299,00", "1299") and comma.same("1.299", "1299")
    assert decimal.same("US$ 87.11", "87.11") and decimal.same("87,11 €", "87.11")
    assert decimal.same("1 234,50 zł", "1234.5") and decimal.same("CHF 1'049.-", "1049")
    assert decimal.same("Rs. 500", "500") and decimal.same(87.11, "87.11")
    assert not decimal.same("220.01", "220") and not decimal.same("1,234", "1.234")
    assert decimal.same("1.234", "1234") and comma.same("1.234,5", "1234.5")
    assert decimal.same("23,450", "23450") and not decimal.same("23,450", "23.450")
    assert decimal.same("0,125", "0.125")  # a lone 0 before the mark: a decimal, not grouping
    for wrong in ("", "abc", "12.34.56", "1,2,3", "1e3", None, True, [220], {"v": 220}):
        assert not decimal.same(wrong, "220")


def _formatted(value: Decimal, rng: Random) -> tuple[str, str | None]:
    """``value`` as a page might print it: a random mark, grouping, currency and spacing."""
    mark = rng.choice([".", ","])
    group = "," if mark == "." else "."
    whole, _, cents = f"{value:.2f}".partition(".")
    if rng.random() < 0.5 and len(whole) > 3:
        digits = whole
        parts = []
        while len(digits) > 3:
            parts.insert(0, digits[-3:])
            digits = digits[:-3]
        whole = group.join([digits, *parts])
    text = whole if cents == "00" and rng.random() < 0.3 else f"{whole}{mark}{cents}"
    around = rng.choice(["{}", "€ {}", "{} €", "$ {}", "{} EUR", "US$ {}", "{}\u00a0kr"])
    return around.format(text), mark


def test_decimal_property_formatted_prices_equal_their_value() -> None:
    rng = Random(26)
    for _ in range(CASES):
        value = Decimal(rng.randrange(1, 10_000_000)) / 100
        text, mark = _formatted(value, rng)
        declared = rule({"kind": "decimal", "decimal_separator": mark})
        assert declared.same(text, str(value)), (text, value)
        assert not declared.same(text, str(value + Decimal("0.01"))), text


def test_text_property_whitespace_nfc_and_casefold() -> None:
    rng = Random(7)
    text, folded = rule("text"), rule({"kind": "text", "casefold": True})
    for _ in range(CASES):
        words = ["".join(rng.choice("abcdéü") for _ in range(rng.randint(1, 6))) for _ in "xyz"]
        label = " ".join(words)
        spaced = rng.choice(["  ", "\n", "\t ", "\u00a0"]).join(words) + rng.choice(["", " \n"])
        decomposed = spaced.replace("é", "e\u0301").replace("ü", "u\u0308")
        assert text.same(decomposed, label)
        assert folded.same(label.upper(), label) and not text.same(label.upper() + "X", label)
        assert text.same(label.upper(), label) == (label.upper() == label)


def test_date_property_iso_dates_and_datetimes() -> None:
    rng = Random(3)
    date = rule("date")
    for _ in range(CASES):
        label = f"{rng.randint(1990, 2030)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        clock = f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00"
        zone = rng.choice(["", "Z", "+02:00", "-05:00", ".123+01:00"])
        assert date.same(label, label) and date.same(f"{label}T{clock}{zone}", label)
        assert date.same(f" {label} ", label)
        day = int(label[-2:])
        assert not date.same(f"{label[:-2]}{day + 1:02d}", label)
    for wrong in ("02.08.2019", "August 2, 2019", "2019-13-01", "2019-02-30", 20190802, None):
        assert not date.same(wrong, "2019-08-02")


def test_url_resolution_case_port_fragment() -> None:
    url = rule("url")
    label = "https://shop.example.com/p/chair?id=9"
    assert url.same("https://SHOP.example.com:443/p/chair?id=9#reviews", label)
    assert url.same("HTTPS://shop.example.com/p/chair?id=9", label)
    assert url.same("/p/chair?id=9", label) and url.same("chair?id=9", "/p/chair?id=9")
    assert url.same("https://page.example/p/chair?id=9", label)  # the neutral host shown
    assert not url.same("https://shop.example.com/p/chair?id=8", label)
    assert not url.same("http://shop.example.com/p/chair?id=9", label)
    assert not url.same("javascript:alert(1)", label) and not url.same("mailto:a@b.c", label)
    assert canonical_url("http://A.example:80", "https://x.example/") == "http://a.example/"
    assert canonical_url("https://a.example:8443/x", "https://x.example/") == (
        "https://a.example:8443/x"
    )
    assert canonical_url("http://[::1", "https://x.example/") is None


def test_exact_keeps_types() -> None:
    exact = rule("exact")
    assert exact.same({"a": [1, "x"]}, {"a": [1, "x"]})
    assert not exact.same(1, 1.0) and not exact.same("1", 1) and not exact.same(True, 1)
    assert not exact.same(" x", "x")


def test_any_of_and_null() -> None:
    decimal = rule("decimal")
    several = AcceptedAnswers(("199", "220"), decimal)
    assert several.matches("220.00") and several.matches("199,00") and not several.matches("210")
    assert not several.matches(None)
    absent = AcceptedAnswers((None,), rule("text"))
    assert absent.matches(None)
    for answer in ("", "null", "None", "not on the page", 0, [], {}):
        assert not absent.matches(answer)


def test_bad_normalization_specs_are_refused() -> None:
    for spec, message in (
        ("fuzzy", "unknown normaliser 'fuzzy'"),
        ({"kind": "decimal", "decimal_separator": ";"}, "decimal_separator must be one of"),
        ({"kind": "text", "casefold": "yes"}, "option 'casefold' of 'text' must be bool"),
        ({"kind": "date", "format": "%d"}, "normaliser 'date' has no option 'format'"),
        ({"casefold": True}, "normalization must be a kind name"),
        (3, "normalization must be a kind name"),
    ):
        with pytest.raises(NormalizationError, match=message):
            rule(spec)


def _random_json(rng: Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.randint(-(10**30), 10**30)
    if kind == 3:
        return rng.choice([0.1, -2.5e300, 1e-300, math.pi])
    if kind in (4, 5):
        alphabet = "0123456789.,-+ €$eE:/#?%[]{}'\"\\\u00a0\u0301ÿ\ud800xZT"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
    if kind in (6, 7):
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {str(i): _random_json(rng, depth + 1) for i in range(rng.randint(0, 3))}


def test_no_grading_call_raises() -> None:
    rng = Random(11)
    rules = [
        AcceptedAnswers(("12.50",), rule("decimal")),
        AcceptedAnswers(("2019-08-02",), rule("date")),
        AcceptedAnswers(("/a?b=1",), rule("url")),
        AcceptedAnswers(("Oak desk", "oak DESK"), rule({"kind": "text", "casefold": True})),
        AcceptedAnswers(({"a": [1]},), rule("exact")),
        AcceptedAnswers((None,), rule("text")),
    ]
    deep: Any = "x"
    for _ in range(2000):
        deep = [deep]
    answers = [_random_json(rng) for _ in range(1500)] + [deep, "9" * 5000, "1" + ",000" * 600]
    for answer in answers:
        json.dumps(answer) if answer is not deep else None
        for accepted in rules:
            assert accepted.matches(answer) in (True, False)
