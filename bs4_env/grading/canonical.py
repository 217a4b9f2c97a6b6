"""Undo the encodings a secret could hide behind, in time linear in the text.

``decoded`` undoes HTML character references, percent escapes and backslash escapes
(JSON ``\\uXXXX``, ``\\xXX``, ``\\/`` ...), repeating while anything changes (a few layers
at most), so escapes of escapes unwrap too. ``canonical`` then applies the Unicode
compatibility mapping of NFKC (fullwidth letters, ligatures), in its decomposed form NFKD so
that combining marks come apart from their letters, drops invisible and combining
characters, decodes once more and casefolds. Both run the same way over a text and over a
secret, so ``canonical(secret) in canonical(text)`` is the test.

Every decoder splits once with a compiled regex and maps each distinct escape once, so a
text dense with escapes costs a few passes in C plus one dictionary lookup per escape.
"""

from __future__ import annotations

import functools
import html.entities
import re
import unicodedata
from collections.abc import Callable

MAX_LAYERS = 3
_NAMED = {name.rstrip(";"): value for name, value in html.entities.html5.items()}
_ENTITY = re.compile(r"&(#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});?")
_PERCENT = re.compile(r"((?:%[0-9A-Fa-f]{2})+)")
_BACKSLASH = re.compile(
    r"\\(u\{[0-9a-fA-F]{1,8}\}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|[^uxU])",
    re.DOTALL,
)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "0": "\0"}
# Invisible characters (format controls such as zero-width spaces, and controls other than
# whitespace) and combining marks: they can split a secret without changing how it reads.
_DROP_CATEGORIES = frozenset({"Cf", "Cc", "Mn", "Me"})
_KEEP = frozenset("\t\n\r")
# Unicode puts such characters in these planes only (BMP, SMP and the tag/selector plane).
_PLANES = (range(0x0000, 0x20000), range(0xE0000, 0xF0000))
# As bytes: ``bytes.translate`` deletes in C, where ``str.translate`` with a dict costs
# microseconds per call, and the secret check folds a few hundred short texts per secret.
_ASCII_CONTROLS = bytes(code for code in range(0x20) if chr(code) not in _KEEP) + b"\x7f"


def _code_point(number: int) -> str:
    return chr(number) if 0 <= number < 0x110000 else "\ufffd"


def _entity(body: str) -> str:
    if body.startswith(("#x", "#X")):
        return _code_point(int(body[2:], 16))
    if body.startswith("#"):
        return _code_point(int(body[1:]))
    return _NAMED.get(body, "&" + body)


def _percent_run(run: str) -> str:
    return bytes.fromhex(run.replace("%", "")).decode("utf-8", errors="replace")


def _backslash(body: str) -> str:
    if body.startswith("u{"):
        return _code_point(int(body[2:-1], 16))
    if body[0] in "uUx" and len(body) > 1:
        return _code_point(int(body[1:], 16))
    return _SIMPLE_ESCAPES.get(body, body)


def _substitute(pattern: re.Pattern[str], decode: Callable[[str], str], text: str) -> str:
    """``pattern.sub`` with ``decode`` called once per distinct escape, not once per match."""
    parts = pattern.split(text)
    if len(parts) == 1:
        return text
    escapes = parts[1::2]
    table = {escape: decode(escape) for escape in set(escapes)}
    parts[1::2] = [table[escape] for escape in escapes]
    return "".join(parts)


def _decode_once(text: str) -> str:
    if "&" in text:
        text = _substitute(_ENTITY, _entity, text)
    if "%" in text:
        text = _substitute(_PERCENT, _percent_run, text)
    if "\\" in text:
        text = _substitute(_BACKSLASH, _backslash, text)
    return text


def decoded(text: str) -> str:
    """``text`` with entity, percent and backslash escapes undone, up to ``MAX_LAYERS`` deep."""
    for _ in range(MAX_LAYERS):
        again = _decode_once(text)
        if again == text:
            break
        text = again
    return text


@functools.cache
def _drop_table() -> dict[int, None]:
    """Code points to delete (built once, on the first non-ASCII text)."""
    return {
        code: None
        for plane in _PLANES
        for code in plane
        if unicodedata.category(chr(code)) in _DROP_CATEGORIES and chr(code) not in _KEEP
    }


def fold(plain: str) -> str:
    """An already ``decoded`` text compatibility-decomposed, without invisible or combining
    characters, decoded again (fullwidth ``＆＃…`` becomes an entity only now), casefolded."""
    if plain.isascii():
        return plain.encode("ascii").translate(None, _ASCII_CONTROLS).decode("ascii").casefold()
    text = unicodedata.normalize("NFKD", plain).translate(_drop_table())
    return decoded(text).casefold()


def literal_views(text: str, plain: str) -> tuple[str, ...]:
    """``text`` as written, and with one layer of backslash escapes undone (a JSON string's
    value), where undoing its escapes changed it (``plain`` is ``decoded(text)``); else
    nothing.

    Undoing escapes breaks an encoding whose own characters look like one (ascii85's
    ``\\``, base85's ``%9E`` or ``&lt``): its characters mix with the next ones, or a
    decoder sees a broken run. The secret search also looks in these views."""
    if plain == text:
        return ()
    once = _substitute(_BACKSLASH, _backslash, text) if "\\" in text else text
    return (text,) if once in (text, plain) else (text, once)


def canonical(text: str) -> str:
    """``fold(decoded(text))``: the form in which secrets are compared."""
    return fold(decoded(text))
