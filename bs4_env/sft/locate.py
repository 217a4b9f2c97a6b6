"""Host-side page reading for the episode writers: where the answer is, and how to name it.

The writers look at the task the way its author can: the truth says which element holds the
answer, and these helpers find that element in the parsed page and a CSS selector, made of this
page's own ids, classes and tags, that selects exactly it (or exactly a list of them). Every
selector is checked here against the page, and every episode is checked again by replaying it
in the sandbox, so nothing here has to be right for all pages: a miss only drops a writer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from bs4 import BeautifulSoup, Tag

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_QUOTED = re.compile(r'"([^"]{2,80})"|\'([^\']{2,80})\'')
HEADINGS = ("h1", "h2", "h3", "h4", "caption", "figcaption", "legend", "summary", "dt")


def is_within(tag: Tag, ancestor: Tag) -> bool:
    """Identity, not ``==``: bs4 compares tags by content, deep and slow (recursive)."""
    return any(parent is ancestor for parent in tag.parents)


def collapse(text: str) -> str:
    return " ".join(text.split())


@functools.lru_cache(maxsize=4)
def parse(html: str) -> BeautifulSoup:
    """The page's tree, parsed once and shared: a task's writers and their helpers read the
    same page a dozen times (``bs4_env.sft.episodes.base_plans``), and parsing it was most of
    their cost. Shared means read-only: no caller may change the tree (a test checks that every
    writer leaves it as parsed). Generated plan code run on the host gets it too where it
    provably reads only (``bs4_env.sft.read_only``, within ``plan.shared_outcomes``); code
    that may change it parses its own copy. The episodes of one row are planned in one
    synchronous call, so a few entries are enough (rows of a chunk run concurrently only in
    the sandbox)."""
    return BeautifulSoup(html, "html.parser")


def quoted_literals(query: str) -> list[str]:
    """The quoted names, labels and values of a request, in order."""
    return [a or b for a, b in _QUOTED.findall(query)]


def text_matches(soup: BeautifulSoup, value: str) -> list[Tag]:
    """The deepest elements whose collapsed text is ``value``, in document order."""
    wanted = collapse(value)
    if not wanted:
        return []
    first = wanted.split()[0]
    found: list[Tag] = []
    # Climb from each text node that could start the value: linear in the page, not quadratic.
    for string in soup.find_all(string=lambda s: first[:12] in s):
        for parent in string.parents:
            text = collapse(parent.get_text())
            if text == wanted:
                if not any(parent is f or is_within(f, parent) for f in found):
                    found.append(parent)
                break
            if wanted not in text and len(text) > len(wanted):
                break
    found = [t for t in found if isinstance(t, Tag) and t.name != "[document]"]
    return [tag for tag in found if not any(is_within(other, tag) for other in found)]


def attribute_matches(soup: BeautifulSoup, value: str) -> list[tuple[Tag, str]]:
    """(element, attribute) pairs whose attribute value is exactly ``value``."""
    pairs = []
    for tag in soup.find_all(True):
        for name, attr in tag.attrs.items():
            if isinstance(attr, str) and attr == value and name not in ("class", "style"):
                pairs.append((tag, name))
    return pairs


def _classes(tag: Tag) -> list[str]:
    return [c for c in tag.get("class") or [] if _NAME.match(c)]


def simple_selector(tag: Tag, all_classes: bool = True) -> str:
    """``tag.class1.class2`` (only classes that need no escaping)."""
    classes = _classes(tag)
    return tag.name + "".join(f".{c}" for c in (classes if all_classes else classes[:1]))


def _id_of(tag: Tag) -> str | None:
    value = tag.get("id")
    return value if isinstance(value, str) and _NAME.match(value) else None


def attribute_selectors(tag: Tag) -> list[str]:
    """``tag[attr="value"]`` for the element's short, plain attributes (not class/style)."""
    out = []
    for name, value in tag.attrs.items():
        if name in ("class", "style", "id") or not isinstance(value, str) or not _NAME.match(name):
            continue
        if 0 < len(value) <= 40 and '"' not in value and "\\" not in value:
            out.append(f'{tag.name}[{name}="{value}"]')
    return out


def _same(found: Sequence[Tag], wanted: Sequence[Tag]) -> bool:
    return len(found) == len(wanted) and all(a is b for a, b in zip(found, wanted, strict=True))


def selector_for(root: Tag, targets: Sequence[Tag], avoid: Sequence[str] = ()) -> str | None:
    """A selector that, under ``root``, selects exactly ``targets`` in order (or None).

    Selectors containing any ``avoid`` string (the answer itself) are never used."""
    first = targets[0]
    element_id = _id_of(first) if len(targets) == 1 else None
    if element_id and _same(root.select(f"#{element_id}"), targets):
        return f"#{element_id}"
    local = [simple_selector(first), simple_selector(first, all_classes=False), first.name]
    if len(targets) == 1:
        local += attribute_selectors(first)
    candidates = list(dict.fromkeys(local))
    classed = 0
    for ancestor in first.parents:
        if ancestor is root or not isinstance(ancestor, Tag) or ancestor.name == "[document]":
            break
        if not all(is_within(t, ancestor) for t in targets):
            continue
        if element_id := _id_of(ancestor):
            candidates += [f"#{element_id} {sel}" for sel in local]
            break
        if _classes(ancestor) and classed < 3:
            classed += 1
            candidates += [f"{simple_selector(ancestor)} {sel}" for sel in local[:2]]
    for selector in candidates:
        if any(value and value in selector for value in avoid):
            continue
        # limit: a selector that matches one element too many is rejected without a full scan
        if _same(root.select(selector, limit=len(targets) + 1), targets):
            return selector
    return None


def lowest_common_ancestor(a: Tag, b: Tag) -> Tag | None:
    b_chain = [b, *b.parents]
    for ancestor in [a, *a.parents]:
        if any(ancestor is other for other in b_chain):
            return ancestor if isinstance(ancestor, Tag) and ancestor.name != "[document]" else None
    return None


def tags_named(soup: BeautifulSoup, names: Sequence[str]) -> list[Tag]:
    """The elements called one of ``names`` (plain tag names, no namespace prefix), in
    document order: what ``soup.find_all(list(names))`` gives, without bs4's general matcher,
    which was about a tenth of the writers' host time (2026-12-06)."""
    wanted = frozenset(names)
    return [el for el in soup.descendants if isinstance(el, Tag) and el.name in wanted]


def heading_anchor(soup: BeautifulSoup, literals: Sequence[str]) -> tuple[str, Tag] | None:
    """The first request literal that is exactly the text of a heading-like element."""
    for literal in literals:
        for tag in tags_named(soup, HEADINGS):
            if collapse(tag.get_text()) == collapse(literal):
                return literal, tag
    return None


def container(anchor: Tag, targets: Sequence[Tag]) -> Tag | None:
    """The lowest ancestor of ``anchor`` that holds every target, if ``find_parent`` by its
    tag name reaches it from the anchor."""
    box = anchor
    for target in targets:
        lca = lowest_common_ancestor(box, target)
        if lca is None:
            return None
        box = lca
    if box is anchor or anchor.find_parent(box.name) is not box:
        return None
    return box
