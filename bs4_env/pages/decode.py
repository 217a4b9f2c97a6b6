"""Page bytes to the text the model's code gets, with every charset declaration made true.

Decoding order: a byte-order mark; else strict UTF-8; else the declared charset (the row's
``charset``, or the page's own ``<meta>``/XML declaration); else cp1252 (its five undefined
bytes kept as the C1 controls of the same number, as browsers do). Pages often declare a
charset they are not in (valid UTF-8 declared as windows-1252), and BeautifulSoup believes
a declaration when it is given bytes: ``BeautifulSoup(HTML.encode(), parser)`` would turn
"München" into "MÃ¼nchen". So every declaration in a ``<meta>`` tag or an XML declaration is
rewritten to utf-8, and a page with non-ASCII text and no declaration in its first
``EARLY_CHARS`` characters gets a ``<meta charset="utf-8">`` at the start of its head
(html5lib reads bytes without a ``<meta>`` declaration as windows-1252, XML declaration
or not).
"""

from __future__ import annotations

import codecs
import gzip
import re
from dataclasses import dataclass

BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
"""UTF-32 before UTF-16: the UTF-32 LE mark begins with the UTF-16 LE one."""
SNIFF_BYTES = 4096
"""How far into the page a charset declaration is looked for (browsers read 1024 bytes)."""

_META = re.compile(rb"<meta\b[^>]*>", re.IGNORECASE)
_CHARSET = re.compile(rb"""charset\s*=\s*["']?\s*([A-Za-z0-9_:.\-]+)""", re.IGNORECASE)
_XML_DECL = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9_.\-]+)""")
_TEXT_META = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_TEXT_CHARSET = re.compile(r"""(charset\s*=\s*["']?\s*)([A-Za-z0-9_:.\-]+)""", re.IGNORECASE)
_TEXT_XML_DECL = re.compile(r"""^(\s*<\?xml[^>]*?encoding\s*=\s*["'])([A-Za-z0-9_.\-]+)""")
_HEAD_OPEN = re.compile(r"<head\b[^>]*>", re.IGNORECASE)
_HTML_OPEN = re.compile(r"<html\b[^>]*>", re.IGNORECASE)
_DOCTYPE = re.compile(r"^\s*<!doctype[^>]*>", re.IGNORECASE)
UTF8_META = '<meta charset="utf-8">'
EARLY_CHARS = 1024
"""A declaration later than this is missed by html5lib's prescan: one is added at the start."""


@dataclass(frozen=True)
class DecodedPage:
    """The page text (declarations rewritten) and how its bytes were read."""

    text: str
    encoding: str
    """``bom:<codec>``, ``utf-8``, ``declared:<codec>`` or ``cp1252``."""
    declared: str | None
    """The charset the page or row declared, as written (``None``: none)."""


def page_bytes(raw: bytes, path_name: str) -> bytes:
    """The page's own bytes: a ``.gz`` file (as the product benchmark stores pages) unpacked."""
    return gzip.decompress(raw) if path_name.endswith(".gz") else raw


def declared_charset(raw: bytes) -> str | None:
    """The first charset the page declares near its start (XML declaration or ``<meta>``)."""
    found = _XML_DECL.match(raw[:SNIFF_BYTES])
    return found.group(1).decode("ascii") if found else meta_charset(raw[:SNIFF_BYTES])


def meta_charset(head: bytes) -> str | None:
    """The first ``<meta>`` charset in ``head`` (HTML parsers ignore an XML declaration)."""
    for meta in _META.finditer(head):
        charset = _CHARSET.search(meta.group(0))
        if charset:
            return charset.group(1).decode("ascii")
    return None


def _cp1252_c1(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    undefined = error.object[error.start : error.end]
    return "".join(chr(byte) for byte in undefined), error.end


codecs.register_error("bs4env-c1", _cp1252_c1)


def _codec(name: str) -> str | None:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def decode_bytes(raw: bytes, charset: str | None = None) -> tuple[str, str, str | None]:
    """(text, how it was decoded, the declaration) for page bytes, in the module's order."""
    for bom, codec in BOMS:
        if raw.startswith(bom):
            return raw.decode(codec), f"bom:{codec}", charset
    declared = charset or declared_charset(raw)
    try:
        return raw.decode("utf-8"), "utf-8", declared
    except UnicodeDecodeError:
        pass  # not UTF-8: the declaration is next
    named = _codec(declared) if declared else None
    if named is not None and named != "utf-8":
        try:
            return raw.decode(named), f"declared:{named}", declared
        except UnicodeDecodeError:
            pass  # the declaration is wrong too: cp1252 reads any byte
    return raw.decode("cp1252", errors="bs4env-c1"), "cp1252", declared


def _utf8_declarations(text: str) -> str:
    """``text`` with every ``<meta>`` charset and the XML encoding set to utf-8."""

    def meta(found: re.Match[str]) -> str:
        return _TEXT_CHARSET.sub(r"\1utf-8", found.group(0))

    return _TEXT_XML_DECL.sub(r"\1utf-8", _TEXT_META.sub(meta, text), count=1)


def _with_utf8_meta(text: str) -> str:
    """``text`` with ``<meta charset="utf-8">`` first in its head (or where a head starts)."""
    for pattern in (_HEAD_OPEN, _HTML_OPEN, _DOCTYPE):
        found = pattern.search(text, 0, SNIFF_BYTES)
        if found:
            return text[: found.end()] + UTF8_META + text[found.end() :]
    return UTF8_META + text


def decode_page(raw: bytes, charset: str | None = None) -> DecodedPage:
    """The page as text whose declarations all say utf-8 (see the module docstring)."""
    text, how, declared = decode_bytes(raw, charset)
    text = text.lstrip("\ufeff")
    text = _utf8_declarations(text)
    early = text[:EARLY_CHARS].encode("utf-8", "surrogatepass")
    if meta_charset(early) is None and not text.isascii():
        text = _with_utf8_meta(text)
    return DecodedPage(text, how, declared)
