"""Tests for bs4_env.tools.arg_repair: a realistic corpus plus property-style mangling checks."""

from __future__ import annotations

import ast
import dataclasses
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bs4_env.tools.arg_repair import (
    NAVIGATE,
    RUN_PYTHON,
    RepairResult,
    ToolArgSpec,
    repair_tool_arguments,
)

CORPUS_PATH = Path(__file__).parent / "data" / "tool_arg_corpus.json"
CORPUS: list[dict[str, Any]] = json.loads(CORPUS_PATH.read_text(encoding="utf-8"))
SPECS = {"run_python": RUN_PYTHON, "navigate": NAVIGATE}


def _assert_model_facing_error(spec: ToolArgSpec, result: RepairResult) -> None:
    assert result.arguments is None
    assert result.error is not None
    assert spec.name in result.error
    assert json.dumps({spec.param: "x"})[:-3] in result.error  # e.g. '{"code": ' shape shown
    assert "Resend" in result.error


# --------------------------------------------------------------------------- corpus


def test_corpus_is_large_and_well_formed() -> None:
    assert len(CORPUS) >= 40
    assert len({c["id"] for c in CORPUS}) == len(CORPUS)
    for case in CORPUS:
        assert case["tool"] in SPECS
        assert case["expect"] in ("repaired", "error")
        if case["expect"] == "repaired":
            assert isinstance(case[SPECS[case["tool"]].param], str)


@pytest.mark.parametrize("case", CORPUS, ids=[c["id"] for c in CORPUS])
def test_corpus_case(case: dict[str, Any]) -> None:
    spec = SPECS[case["tool"]]
    result = repair_tool_arguments(spec, case["raw"])
    if case["expect"] == "error":
        _assert_model_facing_error(spec, result)
        return
    assert result.error is None, result.error
    assert result.arguments == {spec.param: case[spec.param]}  # byte-exact
    assert result.repaired is (result.method != "valid")
    if "method" in case:
        assert result.method == case["method"]


# --------------------------------------------------------------------------- unit behaviour


def test_specs_and_results_are_frozen() -> None:
    assert ToolArgSpec("run_python", "code") == RUN_PYTHON
    assert ToolArgSpec("navigate", "href") == NAVIGATE
    with pytest.raises(dataclasses.FrozenInstanceError):
        RUN_PYTHON.name = "x"  # type: ignore[misc]
    result = repair_tool_arguments(RUN_PYTHON, '{"code": "print(1)"}')
    assert result == RepairResult({"code": "print(1)"}, False, "valid", None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.method = "x"  # type: ignore[misc]


def test_non_string_input_is_an_error() -> None:
    _assert_model_facing_error(RUN_PYTHON, repair_tool_arguments(RUN_PYTHON, 42))  # type: ignore[arg-type]


def test_error_never_returns_empty_arguments() -> None:
    for raw in ("{}", '{"code": "   "}', '{"code": "```python\\n\\n```"}', '""', "```\n\n```"):
        _assert_model_facing_error(RUN_PYTHON, repair_tool_arguments(RUN_PYTHON, raw))


def test_alias_needs_exactly_one_key_and_plausible_value() -> None:
    ok = repair_tool_arguments(RUN_PYTHON, {"cmd": "print(2)"})
    assert (ok.arguments, ok.method) == ({"code": "print(2)"}, "key_alias")
    assert repair_tool_arguments(RUN_PYTHON, {"cmd": "print(2)", "x": "y"}).arguments is None
    assert repair_tool_arguments(NAVIGATE, {"path": "/a/b"}).arguments == {"href": "/a/b"}
    assert repair_tool_arguments(NAVIGATE, {"path": "not a url"}).arguments is None


def test_valid_json_with_backspace_escape_passes_unchanged() -> None:
    # Documented limitation: "\b" is a *valid* JSON escape (backspace), so a regex sent as
    # r'\bfoo\b' without doubling the backslash arrives as backspaces. Valid JSON is not
    # second-guessed; the sandbox runs exactly what the JSON says.
    result = repair_tool_arguments(RUN_PYTHON, '{"code": "re.compile(r\'\\bfoo\')"}')
    assert result.arguments == {"code": "re.compile(r'\bfoo')"}
    assert result.method == "valid"


# --------------------------------------------------------------------------- property-style

_FRAGMENTS = [
    r'm = re.search(r"\$\s*(\d+(?:\.\d{2})?)", text)',
    r'pat = re.compile(r"\bSKU-\d+\b|\s+$")',
    'print(f"{name!r:>10}: {value} {{literal}}")',
    "s = 'it\\'s \"quoted\"'",
    'print("}")',
    'print("\\"}")',
    'd = {"k": "v", "n": {"x": [1, 2]}}',
    'print("café ✓ 日本語 — Größe")',
    'doc = """<p class="a">x</p>\n<p class=\'b\'>y</p>"""',
    r'path = "C:\\temp\\new\\file.html"',
    r'print("\u00e9\n\t", end="")',
    "items = [li.get_text(strip=True) for li in soup.select('ul > li')]",
    'print(soup.find("a", href=True)["href"])  # comment with "quotes" and }',
    "x = 1 + \\\n    2",
]


def _gen_code(rng: random.Random) -> str:
    lines = rng.sample(_FRAGMENTS, rng.randint(1, 5))
    if rng.random() < 0.4:
        indent = rng.choice(["    ", "\t"])
        body = "\n".join(indent + ln.replace("\n", "\n" + indent) for ln in lines)
        lines = ["for row in soup.find_all('tr'):", body]
    code = "\n".join(lines)
    return code + "\n" if rng.random() < 0.2 else code


def _literal_newlines(code: str) -> str:
    parts = (json.dumps(p, ensure_ascii=False)[1:-1] for p in code.split("\n"))
    return '{"code": "' + "\n".join(parts) + '"}'


def _single_backslashes(js: str) -> str:
    def sub(m: re.Match[str]) -> str:
        nxt = m.string[m.end() : m.end() + 1]
        if m.group(1) == "\\" and nxt and nxt not in '"\\/bfnrtu':
            return "\\"
        return m.group(0)

    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", sub, js)


_EXACT: dict[str, Callable[[str], Any]] = {
    "json": lambda c: json.dumps({"code": c}),
    "json_utf8": lambda c: json.dumps({"code": c}, ensure_ascii=False),
    "json_indent": lambda c: json.dumps({"code": c}, indent=2),
    "literal_newlines": _literal_newlines,
    "single_backslashes": lambda c: _single_backslashes(json.dumps({"code": c})),
    "newlines_and_backslashes": lambda c: _single_backslashes(_literal_newlines(c)),
    "fence_inside": lambda c: json.dumps({"code": f"```python\n{c}\n```"}),
    "fence_raw": lambda c: f"```python\n{c}\n```",
    "double_encoded": lambda c: json.dumps(json.dumps({"code": c})),
    "trailing_comma": lambda c: json.dumps({"code": c})[:-1] + ", }",
    "missing_brace": lambda c: json.dumps({"code": c})[:-1],
    "extra_key": lambda c: json.dumps({"code": c, "timeout": 10}),
    "raw_code": lambda c: c,
    "dict": lambda c: {"code": c},
}
_CODES = [_gen_code(random.Random(seed)) for seed in range(80)]


def test_generated_codes_are_valid_python() -> None:
    for code in _CODES:
        ast.parse(code)


@pytest.mark.parametrize("name", sorted(_EXACT))
def test_unambiguous_mangling_repairs_exactly(name: str) -> None:
    for code in _CODES:
        result = repair_tool_arguments(RUN_PYTHON, _EXACT[name](code))
        assert result.arguments == {"code": code}, (name, code, result)


def _never_wrong(raw: str, code: str) -> bool:
    arguments = repair_tool_arguments(RUN_PYTHON, raw).arguments
    return arguments is None or arguments == {"code": code}


def test_truncation_never_yields_different_code() -> None:
    rng = random.Random(7)
    for code in _CODES:
        for encode in (_EXACT["json"], _literal_newlines, _EXACT["single_backslashes"]):
            raw = encode(code)
            cuts = {*rng.sample(range(1, len(raw)), min(8, len(raw) - 1)), len(raw) - 2}
            for cut in cuts:
                arguments = repair_tool_arguments(RUN_PYTHON, raw[:cut]).arguments
                # Only a cut of the final "}" alone may be repaired, and then exactly.
                assert arguments is None or (arguments == {"code": code} and cut == len(raw) - 1)


def test_heuristic_quoting_never_yields_different_code() -> None:
    # Python-literal quoting and unescaped inner quotes go through json_repair; whatever it
    # does, the result must be the original code or an error.
    for code in _CODES:
        assert _never_wrong("{'code': " + repr(code) + "}", code)
        if "\\" not in code:
            assert _never_wrong('{"code": "' + code + '"}', code)
