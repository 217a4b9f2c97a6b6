"""Which page element each identifier names, for the evidence rule.

An identifier is a value that names an element: its ``id``, a URL it loads or links
(``src``, ``href``, ``action``, ``data``, ``poster``, ``srcset``), a ``for``/``form``
reference, a ``data-*`` value, a ``url(...)`` in its style, or a quoted string in an inline
script or style (the ids and endpoints a script uses). Pieces of those values count too
(the file name of a URL, the random part of ``chart-x7f3k``), so citing a fragment names the
element as well. Evidence is cut into pieces the same way, so a piece of a path is never
mistaken for another element's shorter path. Only distinctive values count: at least 4
characters with a letter, and a digit or one of ``/.#?=&%:`` in them; plain words and
hyphenated phrases (``content``, ``customer-service``) and bare numbers read as prose.

The blocking group is every element that carries one of the task's evidence tokens (in an
attribute, or in its script/style text: the mount div and the script that fills it) plus
their ancestors (a path to it). The index is built once per task (parsed with lxml) and
cached.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from lxml import etree

_URL_ATTRS = frozenset({"id", "src", "href", "action", "data", "poster", "for", "form", "srcset"})
_TEXT_TAGS = frozenset({"script", "style"})
_LITERAL = re.compile(r"""'([^'\\\n]{1,300})'|"([^"\\\n]{1,300})"|url\(\s*['"]?([^'")\s]{1,300})""")
_RUN = re.compile(r"[^\s\"'<>()\[\]{},;|`]+")
_PIECES = re.compile(r"[/?&=#:]+")
_SUBPIECES = re.compile(r"[-_.]+")
_MARKS = frozenset("/.#?=&%:")
MAX_IDENTIFIER_CHARS = 120


def distinctive(value: str) -> bool:
    """Whether ``value`` names something rather than reading as a word or a number."""
    if not 4 <= len(value) <= MAX_IDENTIFIER_CHARS or not any(c.isalpha() for c in value):
        return False
    return any(c.isdigit() or c in _MARKS for c in value)


def identifiers_in(value: str) -> set[str]:
    """``value`` and its pieces (runs, URL parts, file names, dash-separated parts)."""
    found: set[str] = set()
    for run in _RUN.findall(value):
        run = run.strip(".:")
        found.add(run)
        found.add(run.split("?", 1)[0].split("#", 1)[0])
        for piece in _PIECES.split(run):
            found.add(piece)
            found.update(_SUBPIECES.split(piece))
    return {item for item in found if distinctive(item)}


def _element_values(element: etree._Element) -> Iterator[str]:
    for name, value in element.attrib.items():
        if name in _URL_ATTRS or name.startswith("data-"):
            yield value
        elif name == "style":
            yield from (m.group(3) or "" for m in _LITERAL.finditer(value))
    if element.tag in _TEXT_TAGS and element.text:
        for match in _LITERAL.finditer(element.text):
            yield match.group(1) or match.group(2) or match.group(3)


def _carries(element: etree._Element, tokens: tuple[str, ...]) -> bool:
    texts = list(element.attrib.values())
    if element.tag in _TEXT_TAGS and element.text:
        texts.append(element.text)
    return any(token in text for text in texts for token in tokens)


@dataclass(frozen=True)
class PageIdentifiers:
    """Identifier -> the elements carrying it, the blocking group, and the page URLs."""

    owners: Mapping[str, frozenset[int]]
    blocking: frozenset[int]
    free: frozenset[str]

    def others_named(self, evidence: str) -> list[str]:
        """Identifiers in ``evidence`` that name no element of the blocking group."""
        return sorted(
            ident
            for ident in identifiers_in(evidence)
            if ident in self.owners
            and ident not in self.free
            and not self.owners[ident] & self.blocking
        )


def _parse(html: str) -> etree._Element | None:
    parser = etree.HTMLParser(recover=True, encoding="utf-8")
    return etree.fromstring(html.encode("utf-8"), parser)


def _build(pages: Iterable[tuple[str, str]], tokens: tuple[str, ...]) -> PageIdentifiers:
    owners: dict[str, set[int]] = defaultdict(set)
    blocking: set[int] = set()
    free: set[str] = set()
    number = 0
    for url, html in pages:
        free |= identifiers_in(url)
        root = _parse(html) if html.strip() else None
        if root is None:
            continue
        numbers: dict[etree._Element, int] = {}
        for element in root.iter():
            if not isinstance(element.tag, str):
                continue  # comments and processing instructions
            number += 1
            numbers[element] = number
            for value in _element_values(element):
                for ident in identifiers_in(value):
                    owners[ident].add(number)
            if _carries(element, tokens):
                node: etree._Element | None = element
                while node is not None and node in numbers:
                    blocking.add(numbers[node])
                    node = node.getparent()
    return PageIdentifiers(
        owners={ident: frozenset(found) for ident, found in owners.items()},
        blocking=frozenset(blocking),
        free=frozenset(free),
    )


@functools.lru_cache(maxsize=32)
def page_identifiers(
    pages: tuple[tuple[str, str], ...], tokens: tuple[str, ...]
) -> PageIdentifiers:
    """The (cached) index of ``pages`` for a task whose blocking element has ``tokens``."""
    return _build(pages, tokens)
