"""Repair the ``arguments`` string of a single-string-parameter tool call, or refuse clearly.

LLMs send tool arguments that are not the JSON they were asked for: raw code, ```` ``` ````
fences, single quotes, literal newlines, invalid escapes such as ``\\d``, double-encoded JSON,
wrong key names, truncation. :func:`repair_tool_arguments` recovers the intended value only when
it is unambiguous, and then byte for byte; otherwise it returns a model-facing error.

Layers, in order (the first that applies decides):

1. Strict JSON of the right shape passes unchanged (``method="valid"``). A JSON string holding
   a JSON object is decoded once more (``double_encoded``); other shapes are errors.
2. Deterministic rewrites that are exact by construction: raw control characters in strings,
   invalid escapes kept as literal backslashes, a trailing comma, and a missing final ``}`` when
   the string itself was closed. The result must then parse as strict JSON.
3. Heuristic repair (``json_repair`` / ``single_quotes`` / ``triple_quotes``) for bare inner
   quotes or non-JSON quoting. ``json_repair`` is only a second opinion: its value is accepted
   when it equals an independent decoding of the *entire* span between the value's opening
   quote and the last quote before the final ``}``, so truncation or dropped text is rejected.
   The value must also be valid Python (``run_python``) or a plausible href (``navigate``).
4. Not JSON at all: a whole ```` ``` ```` block is unwrapped (``fence``); text that parses as
   Python is taken as-is for ``run_python`` (``raw_code``); a bare URL for ``navigate``.

A value whose closing quote is missing is treated as truncated and refused, even if the prefix
happens to be valid Python: a cut-off script can parse and still be the wrong program.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import json_repair

from bs4_env.tools import _lenient as lenient

__all__ = ["NAVIGATE", "RUN_PYTHON", "RepairResult", "ToolArgSpec", "repair_tool_arguments"]


@dataclass(frozen=True)
class ToolArgSpec:
    """A tool whose only, required parameter ``param`` is a string."""

    name: str
    param: str


RUN_PYTHON = ToolArgSpec("run_python", "code")
NAVIGATE = ToolArgSpec("navigate", "href")


@dataclass(frozen=True)
class RepairResult:
    """Outcome of :func:`repair_tool_arguments`.

    ``arguments`` is ``None`` exactly when ``error`` (model-facing) says what to resend;
    ``repaired`` is False only for input that already had the right JSON shape; ``method``
    names the layer(s) used, e.g. ``valid``, ``control_chars+invalid_escapes``, ``error``.
    """

    arguments: dict[str, str] | None
    repaired: bool
    method: str
    error: str | None = None


_ALIASES: dict[str, frozenset[str]] = {
    "code": frozenset({"code", "python", "python_code", "source", "script", "input", "cmd"}),
    "href": frozenset({"href", "url", "link", "path", "uri"}),
}
_EXAMPLES = {"code": "print(1)", "href": "https://example.com/page/2"}


def _join(first: str, then: str) -> str:
    return first if then == "valid" else f"{first}+{then}"


def _fail(spec: ToolArgSpec, problem: str) -> RepairResult:
    example = json.dumps({spec.param: _EXAMPLES.get(spec.param, "...")})
    what = {"code": "Python source", "href": "URL or href"}.get(spec.param, "value")
    return RepairResult(
        None,
        True,
        "error",
        f"{spec.name} expects JSON arguments like {example}; {problem}. Nothing was executed. "
        f'Resend the call with one key "{spec.param}" whose value is the complete {what} as a '
        'single JSON string (escape newlines as \\n, double quotes as \\" and backslashes '
        "as \\\\).",
    )


def _plausible(spec: ToolArgSpec, value: str) -> bool:
    if spec.param == "code":
        return lenient.is_python(value)
    return lenient.is_href(value) if spec.param == "href" else bool(value.strip())


def _finalize(spec: ToolArgSpec, value: str, method: str, *, check: bool) -> RepairResult:
    if spec.param == "code" and value.lstrip().startswith("```"):
        body = lenient.unfence(value)
        if body is None:
            return _fail(spec, "the code starts with a ``` fence that is not one closed block")
        value, method = body, "fence" if method == "valid" else f"{method}+fence"
    if not value.strip():
        return _fail(spec, f'the "{spec.param}" value is empty')
    if check and not _plausible(spec, value):
        kind = "valid Python" if spec.param == "code" else f"a plausible {spec.param}"
        return _fail(spec, f"the repaired value is not {kind}, so it was not guessed at")
    return RepairResult({spec.param: value}, method != "valid", method)


def _from_obj(
    spec: ToolArgSpec, obj: dict[Any, Any], method: str, *, check: bool = False
) -> RepairResult:
    if spec.param in obj:
        value = obj[spec.param]
        if not isinstance(value, str):
            return _fail(spec, f'"{spec.param}" must be a string, got {type(value).__name__}')
        if len(obj) > 1:
            method = _join("extra_keys", method)
        return _finalize(spec, value, method, check=check)
    if len(obj) == 1:
        ((key, value),) = obj.items()
        aliases = _ALIASES.get(spec.param, frozenset())
        if isinstance(key, str) and key.strip().lower() in aliases and isinstance(value, str):
            return _finalize(spec, value, _join("key_alias", method), check=True)
    keys = ", ".join(json.dumps(k) if isinstance(k, str) else repr(k) for k in obj) or "none"
    return _fail(spec, f'the object has key(s) {keys} but needs "{spec.param}"')


def _from_json(spec: ToolArgSpec, obj: object, method: str, depth: int) -> RepairResult:
    if isinstance(obj, dict):
        return _from_obj(spec, obj, method)
    if isinstance(obj, str):
        if depth == 0 and obj.strip().startswith("{"):
            inner = _from_text(spec, obj, depth + 1)
            label = _join("double_encoded", method)
            if inner.arguments is None:
                return inner
            return RepairResult(inner.arguments, True, _join(label, inner.method))
        return _finalize(spec, obj, _join("bare_string", method), check=True)
    shape = "null" if obj is None else type(obj).__name__
    return _fail(spec, f"got JSON {shape} instead of an object")


def _deterministic(spec: ToolArgSpec, text: str) -> RepairResult | None:
    base, fixes = (text, []) if text.endswith("}") else (text + "}", ["missing_brace"])
    if lenient.strip_trailing_comma(base) != base:
        base, fixes = lenient.strip_trailing_comma(base), [*fixes, "trailing_comma"]
    found: list[RepairResult] = []
    variants = [lenient.fix_escapes(base)]
    if "\\'" in base and (squoted := lenient.fix_escapes(base, squote=True)) != variants[0]:
        variants.append(squoted)
    for squote, fixed in enumerate(variants):
        parsed = lenient.loads(fixed)
        if parsed is None:
            continue
        labels = [*fixes, *(["control_chars"] if parsed[1] else [])]
        labels += (["escaped_quotes"] if squote else ["invalid_escapes"]) if fixed != base else []
        if not labels:
            return None
        found.append(_from_json(spec, parsed[0], "+".join(labels), depth=0))
    ok = [r for r in found if r.arguments is not None]
    if spec.param == "code" and len(ok) == 2:
        valid = [r for r in ok if r.arguments and lenient.is_python(r.arguments["code"])]
        if len(valid) == 2:
            return _fail(spec, "\\' is ambiguous here (quote or literal backslash-quote)")
        ok = valid or ok[:1]
    return ok[0] if ok else (found[0] if found else None)


def _heuristic(spec: ToolArgSpec, text: str) -> RepairResult | None:
    triple = lenient.triple_quoted(text)
    if triple is not None:
        return _from_obj(spec, {triple[0]: triple[1]}, "triple_quotes", check=True)
    span = lenient.single_key_span(text)
    if span is None:
        return None
    key, value, quote = span
    try:
        second = json_repair.repair_json(text, return_objects=True)
    except Exception:  # the library is a heuristic; any failure just means "no opinion"
        return None
    if second != {key: value}:
        return None
    single = quote == "'" or text.lstrip("{ \t\r\n").startswith("'")
    return _from_obj(spec, {key: value}, "single_quotes" if single else "json_repair", check=True)


def _from_text(spec: ToolArgSpec, raw: str, depth: int) -> RepairResult:
    text = raw.strip()
    if not text:
        return _fail(spec, "the arguments were empty")
    parsed = lenient.loads(text)
    if parsed is not None and (not parsed[1] or not text.startswith("{")):
        return _from_json(spec, parsed[0], "control_chars" if parsed[1] else "valid", depth)
    if text.startswith("```"):
        body = lenient.unfence(text)
        if body is None:
            return _fail(spec, "the ``` fence is not one closed block")
        inner = _from_text(spec, body, depth + 1)
        if inner.arguments is None:
            return inner
        plain = inner.method in ("valid", "raw_code", "raw_href")
        return RepairResult(inner.arguments, True, "fence" if plain else f"fence+{inner.method}")
    if text.startswith("{"):
        result = _deterministic(spec, text) or _heuristic(spec, text)
        if result is not None:
            return result
        if not text.endswith("}"):
            return _fail(spec, "the JSON is not closed with }, so the value may be cut off")
        return _fail(
            spec,
            "the arguments are not valid JSON (cut off, or quotes/backslashes inside the value "
            "not escaped) and the intended value is ambiguous",
        )
    if spec.param == "code" and lenient.is_python(raw):
        return RepairResult({"code": raw}, True, "raw_code")
    if spec.param == "href" and lenient.is_href(text):
        return RepairResult({"href": text}, True, "raw_href")
    return _fail(spec, "the arguments are neither JSON nor a recognisable bare value")


def repair_tool_arguments(spec: ToolArgSpec, raw: str | dict[Any, Any] | None) -> RepairResult:
    """Return the intended ``{spec.param: value}`` exactly, or ``arguments=None`` and an error."""
    if raw is None:
        return _fail(spec, "the arguments were null")
    if isinstance(raw, dict):
        return _from_obj(spec, raw, "valid")
    if not isinstance(raw, str):
        return _fail(spec, f"the arguments were a {type(raw).__name__}, not a JSON string")
    return _from_text(spec, raw, depth=0)
