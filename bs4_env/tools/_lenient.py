"""Provably safe text transforms used by :mod:`bs4_env.tools.arg_repair`.

Every helper here either returns a value that is exactly determined by its input, or ``None``.
None of them guesses where a string ends: the only boundary rule (``single_key_span``) requires
the whole input to be one ``{key: "value"}`` object, so the value must reach the last quote.
"""

from __future__ import annotations

import ast
import json
import re
import warnings

_VALID = r"""(\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt]))"""
_PLAIN = re.compile(_VALID + r"|(\\)")  # template \1\2\2: a lone backslash is doubled
_SQUOTE = re.compile(_VALID + r"|\\(')|(\\)")  # \' becomes '
_BARE_QUOTE = re.compile(r'(\\[\s\S])|"')
_TRAILING_COMMA = re.compile(r",\s*\}\s*\Z")
_SPAN = re.compile(
    r"""\A\s*\{\s*(?P<kq>["']?)(?P<key>[A-Za-z_]\w*)(?P=kq)\s*:\s*"""
    r"""(?P<vq>["'])(?P<body>.*)(?P=vq)\s*,?\s*\}\s*\Z""",
    re.DOTALL,
)
_FENCE = re.compile(r"\A\s*```[\w.+-]*[ \t]*\r?\n(?P<body>.*?)\n?```\s*\Z", re.DOTALL)
_HREF = re.compile(r"[^\s\"'`<>{}\[\]\\^|]{1,2048}")


def fix_escapes(text: str, *, squote: bool = False, dquote: bool = False) -> str:
    r"""Make every backslash that JSON would reject a literal backslash (``\d`` -> ``\\d``).

    ``squote`` decodes ``\'`` to ``'`` (otherwise it stays a literal ``\'``); ``dquote`` also
    escapes bare ``"`` (used when ``text`` is a string body whose bounds are already known).
    """
    if "\\" in text:
        text = _SQUOTE.sub(r"\1\2\3\3", text) if squote else _PLAIN.sub(r"\1\2\2", text)
    if dquote:
        text = _BARE_QUOTE.sub(lambda m: m.group(1) or '\\"', text)
    return text


def strip_trailing_comma(text: str) -> str:
    """Drop a comma before the final ``}``: ``{"code": "x",}`` -> ``{"code": "x"}``."""
    return _TRAILING_COMMA.sub("}", text)


def loads(text: str) -> tuple[object, bool] | None:
    """``json.loads`` then the non-strict variant; returns ``(value, needed_non_strict)``."""
    for strict in (True, False):
        try:
            return json.loads(text, strict=strict), not strict
        except ValueError:
            continue
    return None


def single_key_span(text: str) -> tuple[str, str, str] | None:
    """Decode ``{key: "value"}`` where the value runs to the last quote before the final ``}``.

    Inside the value, bare quotes and invalid escapes are literal and raw control characters are
    allowed. Returns ``(key, value, value_quote)`` or ``None`` (not one object, or the closing
    quote is itself escaped, i.e. the value was cut off).
    """
    m = _SPAN.match(text)
    if m is None:
        return None
    body, quote = m["body"], m["vq"]
    if (len(body) - len(body.rstrip("\\"))) % 2:
        return None
    fixed = fix_escapes(body, squote=quote == "'", dquote=True)
    try:
        value = json.loads(f'"{fixed}"', strict=False)
    except ValueError:
        return None
    return (m["key"], value, quote) if isinstance(value, str) else None


def triple_quoted(text: str) -> tuple[str, str] | None:
    """``{"code": \"\"\"...\"\"\"}``: accepted only when Python's reading equals the raw text."""
    m = _SPAN.match(text)
    if m is None or len(m["body"]) < 4:
        return None
    body, quote = m["body"], m["vq"]
    if not (body.startswith(quote * 2) and body.endswith(quote * 2)):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obj = ast.literal_eval(text.strip())
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    if isinstance(obj, dict) and obj == {m["key"]: body[2:-2]}:
        return m["key"], body[2:-2]
    return None


def unfence(text: str) -> str | None:
    """The body of a single ```` ``` ```` block spanning all of ``text`` (exact), else ``None``."""
    m = _FENCE.match(text)
    if m is None or re.search(r"^[ \t]*```", m["body"], re.MULTILINE):
        return None
    return m["body"]


def is_python(code: str) -> bool:
    """True when ``code`` parses and does more than name a single constant or variable."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    if not tree.body:
        return False
    first = tree.body[0]
    lone = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant | ast.Name)
    return not (len(tree.body) == 1 and lone)


def is_href(value: str) -> bool:
    """True for a bare URL or relative href: no whitespace, quotes, brackets or backslashes."""
    return _HREF.fullmatch(value) is not None
