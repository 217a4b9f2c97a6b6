"""What counts as an identifier of a page element, for the evidence rule.

An identifier is a value that names an element: its ``id``, a URL it loads or links
(``src``, ``href``, ``action``, ``data``, ``poster``, ``srcset``), a ``for``/``form``
reference, a ``data-*`` value, a ``url(...)`` in its style, or a quoted string in an inline
script or style (the ids and endpoints a script uses). Pieces of those values count too
(the file name of a URL, the URL without its query or cut before each ``&`` parameter, the
random part of ``chart-x7f3k``), so citing a fragment names the element as well. Only
distinctive values count: at least 4 characters with a letter, and a digit or one of
``/.#?=&%:`` in them; plain words and hyphenated phrases (``content``, ``customer-service``)
and bare numbers read as prose. An ``id`` is the exception: every id counts, bare, digits or
not (``chk-mdjtfjk``, and its piece ``mdjtfjk``), unless it is prose: every run of 4+
letters in it is a word of the page's visible text or a layout word (``main-content``,
``reviews``, ``q-top``). Everything is compared in ``normal_form``.

A page's visible text names elements too where it prints a code: a Ray ID, a challenge
or reference code, a model number. A printed code is a run of letters, digits, ``-`` and
``_`` with a part of at least 6 characters that mixes letters and digits, or of at least
12 digits (a Ray ID that drew no hex letter); it names the element whose text holds it.
Words, prices, dates, phone numbers and ``12-month`` are not codes.

What *locates* an element is narrower: a whole attribute value (or that URL cut before a
``&`` parameter) or its id cited as ``#x`` / ``id="x"``, never a piece or a script's
string. Pieces and script strings are often the same on every page (``orchestrate.js``,
``woff2``, ``28px``), so they could be cited without looking; whole values carry the
element's seed-random parts.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator
from urllib.parse import unquote

from lxml import etree

_URL_ATTRS = frozenset({"id", "src", "href", "action", "data", "poster", "for", "form", "srcset"})
TEXT_TAGS = frozenset({"script", "style"})
# Quoted strings, escapes allowed, so one string with a ``\'`` in it does not shift every
# later quote and turn code into "strings". A string holding ``;(){}`` is code, and one
# holding ``<>`` is markup (``'<li class="item">'``): neither names an element.
_LITERAL = re.compile(
    r"""'((?:[^'\\\n]|\\.){1,300})'|"((?:[^"\\\n]|\\.){1,300})"|url\(\s*['"]?([^'")\s]{1,300})"""
)
_CODE = frozenset(";(){}<>")
_RUN = re.compile(r"[^\s\"'<>()\[\]{},;|`]+")
_PIECES = re.compile(r"[/?&=#:]+")
_SUBPIECES = re.compile(r"[-_.]+")
_MARKS = frozenset("/.#?=&%:")
MAX_IDENTIFIER_CHARS = 120
MIN_IDENTIFIER_CHARS = 4
_LETTER_RUN = re.compile(r"[^\W\d_]{4,}")
# ASCII-only twins of ``str.isalpha``/``str.isdigit`` tests (exact on ASCII text, where they
# run in C): most values are ASCII, and these checks run for every piece of every element.
_ASCII_LETTER = re.compile(r"[A-Za-z]")
_ASCII_DIGIT = re.compile(r"[0-9]")
_ASCII_DIGIT_OR_MARK = re.compile(r"[0-9/.#?=&%:]")
_PRINTED_RUN = re.compile(r"[\w-]+")
MIN_CODE_CHARS = 6
MIN_DIGIT_CODE_CHARS = 12
# Words of a page's frame that honest prose uses even where the page never shows them.
LAYOUT_WORDS = frozenset(
    [
        "main",
        "content",
        "page",
        "primary",
        "secondary",
        "root",
        "wrap",
        "wrapper",
        "header",
        "footer",
        "sidebar",
        "navigation",
        "menu",
        "site",
        "search",
        "reset",
        "container",
        "body",
        "masthead",
        "colophon",
        "banner",
        "logo",
        "toolbar",
        "breadcrumbs",
        "widget",
        "widgets",
        "layout",
        "section",
        "article",
        "aside",
    ]
)


def normal_form(text: str) -> str:
    """``text`` with HTML entities and percent escapes undone (a few layers), case folded."""
    if "&" not in text and "%" not in text:
        return text.casefold()  # nothing to undo (what the loop below returns at once)
    for _ in range(3):
        decoded = unquote(html.unescape(text))
        if decoded == text:
            break
        text = decoded
    return text.casefold()


def distinctive(value: str) -> bool:
    """Whether ``value`` names something rather than reading as a word or a number."""
    if not MIN_IDENTIFIER_CHARS <= len(value) <= MAX_IDENTIFIER_CHARS:
        return False
    if value.isascii():
        return bool(_ASCII_LETTER.search(value) and _ASCII_DIGIT_OR_MARK.search(value))
    return any(c.isalpha() for c in value) and any(c.isdigit() or c in _MARKS for c in value)


def _runs(value: str) -> Iterator[str]:
    """``value``'s whitespace/punctuation-separated runs, each also cut before its ``&``s."""
    for run in _RUN.findall(value):
        run = run.strip(".:")
        yield run
        if "&" in run:
            yield from (run[:at] for at, c in enumerate(run) if c == "&" and "?" in run[:at])


def identifiers_in(value: str) -> set[str]:
    """``value`` and its pieces (runs, URL parts, file names, dash-separated parts)."""
    found: set[str] = set()
    for run in _runs(value):
        found.add(run)
        found.add(run.split("?", 1)[0].split("#", 1)[0])
        for piece in _PIECES.split(run):
            found.add(piece)
            found.update(_SUBPIECES.split(piece))
    return {item for item in found if distinctive(item)}


def _literals(text: str) -> Iterator[str]:
    for match in _LITERAL.finditer(text):
        literal = match.group(1) or match.group(2) or match.group(3) or ""
        if _CODE.isdisjoint(literal):
            yield literal


def _attribute_values(element: etree._Element) -> Iterator[str]:
    for name, value in element.attrib.items():
        if name in _URL_ATTRS or name.startswith("data-"):
            yield value


def _id_forms(element: etree._Element) -> set[str]:
    """``#x``, ``id="x"`` and ``id='x'``: unambiguous even where ``x`` reads as a phrase."""
    name = element.get("id")
    if not name or any(c.isspace() or c in "\"'" for c in name):
        return set()
    return {form for form in (f"#{name}", f'id="{name}"', f"id='{name}'") if distinctive(form)}


def page_words(texts: Iterable[str]) -> frozenset[str]:
    """The words (runs of 4+ letters, in ``normal_form``) of a page's visible texts."""
    return frozenset(_LETTER_RUN.findall(normal_form(" ".join(texts))))


def prose(value: str, words: frozenset[str]) -> bool:
    """Whether every run of 4+ letters in ``value`` is one of ``words`` or a layout word."""
    return all(
        run in words or run in LAYOUT_WORDS for run in _LETTER_RUN.findall(normal_form(value))
    )


def _bare_ids(element: etree._Element, words: frozenset[str]) -> set[str]:
    """The element's id and its dash-separated pieces, bare, digits or not, unless prose."""
    name = element.get("id")
    if not name or any(c.isspace() or c in "\"'" for c in name):
        return set()
    pieces = {name, *_SUBPIECES.split(name)}
    return {
        piece
        for piece in pieces
        if MIN_IDENTIFIER_CHARS <= len(piece) <= MAX_IDENTIFIER_CHARS
        and any(c.isalpha() for c in piece)
        and not prose(piece, words)
    }


def element_identifiers(element: etree._Element, words: frozenset[str]) -> set[str]:
    """Every identifier of ``element`` (values, their pieces, its id forms, its bare id
    unless prose in a page of ``words``), in normal form."""
    attributes = element.attrib
    if not attributes and element.tag not in TEXT_TAGS:
        return set()  # no values, no id: most elements of a page
    values: list[str] = []
    for name, value in attributes.items():
        if name in _URL_ATTRS or name.startswith("data-"):
            values.append(value)
        elif name == "style":
            values += [m.group(3) for m in _LITERAL.finditer(value) if m.group(3)]
    if element.tag in TEXT_TAGS and element.text:
        values += _literals(element.text)
    found = {ident for value in values for ident in identifiers_in(value)} | _id_forms(element)
    found |= _bare_ids(element, words)
    return {normal_form(ident) for ident in found}


def printed_code(run: str) -> bool:
    """Whether a run of printed text (letters, digits, ``-``, ``_``) is a code: one of its
    ``-``/``_`` parts mixes letters and digits over 6+ characters, or is 12+ digits
    (``12-month`` and ``covid-19`` read as prose)."""
    if len(run) > MAX_IDENTIFIER_CHARS:
        return False
    for part in _SUBPIECES.split(run):
        if part.isdigit() and len(part) >= MIN_DIGIT_CODE_CHARS:
            return True
        mixed = any(c.isdigit() for c in part) and any(c.isalpha() for c in part)
        if mixed and len(part) >= MIN_CODE_CHARS:
            return True
    return False


def printed_codes(element: etree._Element) -> set[str]:
    """The codes ``element`` prints: in its own text and its children's tails (in normal
    form); nothing for a script or style, whose text is not shown."""
    if element.tag in TEXT_TAGS:
        return set()
    texts = [element.text or ""] + [child.tail or "" for child in element]
    text = normal_form(" ".join(texts))
    if text.isascii() and not _ASCII_DIGIT.search(text):
        return set()  # every code has a digit (``printed_code``)
    runs = _PRINTED_RUN.findall(text)
    return {run.strip("-_") for run in runs if printed_code(run.strip("-_"))}


def locating_forms(element: etree._Element, words: frozenset[str]) -> set[str]:
    """What locates ``element``: its whole values (and URLs cut at ``&``), its id forms and
    its bare id unless prose."""
    runs = {run for value in _attribute_values(element) for run in _runs(value)}
    found = {run for run in runs if distinctive(run)} | _id_forms(element)
    name = element.get("id")
    if name is not None and name in _bare_ids(element, words):
        found.add(name)
    return {normal_form(form) for form in found}
