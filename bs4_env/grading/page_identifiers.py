"""Which page element each identifier names, and whether that element is the blocker.

(What an identifier is, printed codes such as a Ray ID included: see ``identifiers``.) The
blocker is the whole subtree of every element that carries one of the task's evidence tokens
(in an attribute, or in its script/style text: a bot check with its form and widget, a mount
div and the script that fills it), plus each element such a script looks up by id (the list
it fills: that element itself, not the items already in it). The blocker's ancestors are
only the path to it.
Each identifier of the task's pages is one of:

- ``BLOCKER``: names blocker elements and nothing outside the blocker and its path;
- ``OTHER``: names only elements outside both: citing it is an inventory;
- ``NEUTRAL``: shared by both, named only by the path, in a page's URL, or contained in
  the blocker's own markup (``/stores`` in its ``/login?next=/stores/4xj953``), so that
  citing the blocker, even cut short, never cites another element by accident.

``locating`` holds the blocker's locating forms (its whole values, ``#id``) that are
``BLOCKER``: citing one identifies the blocker as well as a token does. The index is built
once per task (parsed with lxml) and cached.
"""

from __future__ import annotations

import enum
import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from lxml import etree

from bs4_env.grading.identifiers import (
    MIN_IDENTIFIER_CHARS,
    TEXT_TAGS,
    element_identifiers,
    identifiers_in,
    locating_forms,
    normal_form,
    page_words,
    printed_codes,
)

_LOOKUP_QUOTES = ("'", '"')
# The page's text outside scripts and styles: the prose its bare ids are compared with.
_VISIBLE_TEXT = "//text()[not(ancestor::script) and not(ancestor::style)]"


class Kind(enum.Enum):
    BLOCKER = "blocker"
    OTHER = "other"
    NEUTRAL = "neutral"


@dataclass(frozen=True)
class PageIdentifiers:
    """Each identifier of a task's pages (normal form) with its ``Kind``, indexed by head."""

    kinds: Mapping[str, Kind]
    heads: Mapping[str, tuple[str, ...]]
    locating: frozenset[str]

    def named_in(self, text: str) -> set[str]:
        """The page identifiers that occur anywhere in ``text`` (in ``normal_form``).

        Only identifiers whose first characters occur in ``text`` are tried, so the cost
        follows the evidence, not the number of identifiers on the page.
        """
        size = MIN_IDENTIFIER_CHARS
        grams = {text[at : at + size] for at in range(len(text) - size + 1)}
        return {
            ident
            for head in grams & self.heads.keys()
            for ident in self.heads[head]
            if ident in text
        }


def _carries(element: etree._Element, tokens: tuple[str, ...]) -> bool:
    texts = list(element.attrib.values())
    if element.tag in TEXT_TAGS and element.text:
        texts.append(element.text)
    return any(token in text for text in texts for token in tokens)


def _filled(script: etree._Element, by_id: Mapping[str, etree._Element]) -> list[etree._Element]:
    """The elements a script looks up by id (``getElementById('x')``, ``'#x'``)."""
    text = script.text or ""
    return [
        element
        for name, element in by_id.items()
        if any(f"{q}{mark}{name}{q}" in text for q in _LOOKUP_QUOTES for mark in ("", "#"))
    ]


def _blocker(root: etree._Element, tokens: tuple[str, ...]) -> tuple[set[etree._Element], str]:
    """The blocker's elements, and what it shows: its markup and its path's attributes."""
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    carriers = [el for el in elements if _carries(el, tokens)]
    found = {el for carrier in carriers for el in carrier.iter() if isinstance(el.tag, str)}
    path = {parent for el in carriers for parent in el.iterancestors()}
    by_id = {str(el.get("id")): el for el in elements if el.get("id")}
    for script in (el for el in carriers if el.tag == "script" and el.text):
        for filled in _filled(script, by_id):
            # An ancestor of the blocker (the page's main region) is only the path to it.
            if filled not in path and filled not in found:
                found.add(filled)
                path.update(filled.iterancestors())
    outermost = [el for el in carriers if set(carriers).isdisjoint(el.iterancestors())]
    shown = [_markup(el) for el in outermost]
    shown += [value for el in path | found for value in el.attrib.values()]
    return found, normal_form("\n".join(shown))


def blocker_elements(root: etree._Element, tokens: tuple[str, ...]) -> set[etree._Element]:
    """The elements of the blocker in a parsed page (as the index sees them): the leak
    audit's element check asks whether they can be found without the tokens."""
    return _blocker(root, tokens)[0]


def _markup(element: etree._Element) -> str:
    return str(etree.tostring(element, method="html", encoding="unicode", with_tail=False))


# Which kinds of element name an identifier, as bits (blocker, outside, path): an int per
# identifier is cheaper than a set of enum members (hashed in Python) for the ~50,000
# identifiers of a limitation task.
_BITS = ((Kind.BLOCKER, 1), (Kind.OTHER, 2), (Kind.NEUTRAL, 4))
_IN_BLOCKER, _OUTSIDE, _ON_PATH = (bit for _kind, bit in _BITS)


def _kind(found: set[Kind]) -> Kind:
    """Named by the blocker (and maybe its path) only; by outside elements only; or shared.

    ``found`` holds ``NEUTRAL`` for an element on the path: it excuses an identifier that an
    outside element shares with it, as a path to the blocker, but locates nothing.
    """
    if Kind.OTHER in found:
        return Kind.OTHER if found == {Kind.OTHER} else Kind.NEUTRAL
    return Kind.BLOCKER if Kind.BLOCKER in found else Kind.NEUTRAL


# ``_kind`` of every non-empty set of kinds, by its bits.
_KIND_OF_BITS = {bits: _kind({kind for kind, bit in _BITS if bits & bit}) for bits in range(1, 8)}


def _build(pages: Iterable[tuple[str, str]], tokens: tuple[str, ...]) -> PageIdentifiers:
    seen: dict[str, int] = defaultdict(int)
    neutral: set[str] = set()
    forms: set[str] = set()
    shown: list[str] = []
    for url, page in pages:
        neutral |= {normal_form(ident) for ident in identifiers_in(url)}
        shown.append(normal_form(url))
        root = _parse(page) if page.strip() else None
        if root is None:
            continue
        blocker, markup = _blocker(root, tokens)
        shown.append(markup)
        path = {parent for el in blocker for parent in el.iterancestors()} - blocker
        words = page_words(root.xpath(_VISIBLE_TEXT))
        for element in root.iter(etree.Element):  # not comments or processing instructions
            in_blocker = element in blocker
            bit = _ON_PATH if element in path else _IN_BLOCKER if in_blocker else _OUTSIDE
            for ident in element_identifiers(element, words) | printed_codes(element):
                seen[ident] |= bit
            if in_blocker:
                forms |= locating_forms(element, words)
    text = "\n".join(shown)
    kinds = {ident: _KIND_OF_BITS[found] for ident, found in seen.items()}
    for ident, kind in kinds.items():
        if ident in neutral or (kind is Kind.OTHER and ident in text):
            kinds[ident] = Kind.NEUTRAL
    kinds = {ident: kind for ident, kind in kinds.items() if len(ident) >= MIN_IDENTIFIER_CHARS}
    heads: dict[str, list[str]] = defaultdict(list)
    for ident in kinds:
        heads[ident[:MIN_IDENTIFIER_CHARS]].append(ident)
    return PageIdentifiers(
        kinds=kinds,
        heads={head: tuple(found) for head, found in heads.items()},
        locating=frozenset(form for form in forms if kinds.get(form) is Kind.BLOCKER),
    )


def _parse(page: str) -> etree._Element | None:
    parser = etree.HTMLParser(recover=True, encoding="utf-8")
    return etree.fromstring(page.encode("utf-8"), parser)


@functools.lru_cache(maxsize=32)
def page_identifiers(
    pages: tuple[tuple[str, str], ...], tokens: tuple[str, ...]
) -> PageIdentifiers:
    """The (cached) index of ``pages`` for a task whose blocking element has ``tokens``."""
    return _build(pages, tokens)
