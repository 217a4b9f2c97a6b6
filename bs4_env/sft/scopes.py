"""Where a program looks, and how it names what it picks there, from the request's own words.

A scope is the block the request points at: the element whose attribute is a quoted value
(``soup.find("div", attrs={"data-unit": "u-1"})``), or the nearest blocks around an element
whose text the request quotes or says (a heading, a label, an author's name), and inside one
such block the smaller one another of its words names (a credit row by its role). A pick is
what the program selects in the scope: the request's class names or attribute values, the
page's own classes and tags, or the elements whose text the request quotes. All are computed
against the page here; a writer keeps only those that select what the truth needs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.targeted_common import find_call, titled

BOXES = ("section", "article", "nav", "div", "aside", "li", "dl", "form", "figure")
_CLASS = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_READ = re.compile(r"\[(href|src|srcset|data-[\w-]+)=")
Scope = tuple[list[str], Tag, str | None]
"""(lines binding ``box``, the box, the attribute naming it when a literal value does)."""
Pick = tuple[str, Callable[[Tag], list[Tag]]]
"""(code selecting under the scope's variable, written with ``{var}``; the same here)."""


def phrases(root: Tag, words: str) -> Iterator[tuple[Tag, str]]:
    """Elements whose own text the request's words contain (an author's name, unquoted)."""
    for string in root.find_all(string=True):
        text = locate.collapse(string)
        parent = string.parent
        near = 6 <= len(text) <= 60 and re.search(rf"(?<!\w){re.escape(text)}(?!\w)", words)
        if near and isinstance(parent, Tag) and parent.string == string and text == string:
            yield parent, text


def _around(anchor: Tag, target: Tag) -> list[Tag]:
    """The nearest two blocks around the anchor that hold the target, each as find_parent by
    its tag name reaches it."""
    boxes = [b for b in anchor.parents if b.name in BOXES and anchor.find_parent(b.name) is b]
    return [b for b in boxes if locate.is_within(target, b)][:2]


def _first(root: Tag, tag: Tag, text: str) -> bool:
    """Whether ``find_call`` from ``root`` finds ``tag`` (the first of its name so titled)."""
    same = (t for t in root.find_all(tag.name) if t.string is not None)
    return next((t for t in same if locate.collapse(t.string or "") == text), None) is tag


def _anchors(soup: BeautifulSoup, found: list[str], query: str) -> Iterator[tuple[str, Tag]]:
    """(code finding it, element): headings the request quotes, elements whose text it says,
    the one text node that holds a quoted code (an item number)."""
    named = [(t, lit) for lit in found for t in titled(soup, lit)] + list(phrases(soup, query))
    seen: set[int] = set()
    for tag, text in named:
        if id(tag) not in seen and _first(soup, tag, text):
            seen.add(id(tag))
            yield find_call(tag, text), tag
    for lit in [f for f in found if len(f) >= 6 and not f.isalpha()]:
        strings = soup.find_all(string=lambda s, lit=lit: lit in s, limit=2)
        if len(strings) == 1 and isinstance(strings[0].parent, Tag):
            yield f"soup.find(string=lambda s: s and {lit!r} in s).parent", strings[0].parent


def scopes(soup: BeautifulSoup, found: list[str], query: str, target: Tag) -> list[Scope]:
    """Scopes holding ``target``, smallest first (the fewer look-alikes around it, the
    plainer the code), the whole page last."""
    out: list[Scope] = []
    for lit in found:
        for tag, attr in locate.attribute_matches(soup, lit)[:2]:
            if locate.is_within(target, tag) and attr != "class":
                out.append(
                    ([f"box = soup.find({tag.name!r}, attrs={{{attr!r}: {lit!r}}})"], tag, attr)
                )
    for find, anchor in _anchors(soup, found, query):
        if anchor is target or locate.is_within(anchor, target):
            continue  # the target's own words: no way to find it
        for box in _around(anchor, target):
            head = [f"title = {find}", f"box = title.find_parent({box.name!r})"]
            out.append((head, box, None))
            # Inside it, the smaller block that the request's words name (a row by its label).
            for inner, text in phrases(box, query):
                own = inner in (target, anchor) or locate.is_within(inner, target)
                if not own and _first(box, inner, text):
                    for item in _around(inner, target):
                        step = f"{find_call(inner, text, 'box')}.find_parent({item.name!r})"
                        out.append(([*head, f"box = {step}"], item, None))
    out.sort(key=lambda scope: (len(scope[1].find_all(True)), len(scope[0])))
    return [*out, ([], soup, None)]


def _select(selector: str, box: Tag) -> list[Tag]:
    return list(box.select(selector))


def _named(name: str, text: str, box: Tag) -> list[Tag]:
    return [t for t in box.find_all(name) if t.string is not None and t.string.strip() == text]


def _selectors(target: Tag, found: list[str]) -> Iterator[str]:
    own = [c for c in target.get("class") or [] if _CLASS.match(c)]
    named = [c for c in own if c in found]
    if named:
        yield "." + ".".join(named)
    for ancestor in target.parents:
        if classes := [c for c in ancestor.get("class") or [] if c in found]:
            yield "." + ".".join(classes) + " " + locate.simple_selector(target, False)
            break
    for attr in ("href", "src"):
        value = str(target.get(attr) or "")
        for lit in [f for f in found if len(f) >= 3 and '"' not in f]:
            if value.endswith(lit) or value.startswith(lit):
                yield f'{target.name}[{attr}{"$=" if value.endswith(lit) else "^="}"{lit}"]'
    rel = target.get("rel")
    if isinstance(rel, list) and len(rel) == 1 and _CLASS.match(rel[0]):
        yield f'{target.name}[rel="{rel[0]}"]'
    yield from (f"{target.name}.{c}" for c in own)
    yield locate.simple_selector(target)
    # Not by a link's or source's own address: that is the value being read.
    plain = [s for s in locate.attribute_selectors(target) if not re.search(_READ, s)]
    yield from plain[:2]
    yield target.name
    parent = target.parent
    if isinstance(parent, Tag):
        yield f"{locate.simple_selector(parent, False)} > {locate.simple_selector(target, False)}"


def picks(target: Tag, found: list[str]) -> Iterator[Pick]:
    """Ways to select elements like ``target``: the request's class names or attribute
    values first, then the page's own classes, attributes and tags, alone or under a parent;
    and the elements of its tag whose text the request quotes."""
    for selector in dict.fromkeys(_selectors(target, found)):
        yield f"{{var}}.select({selector!r})", functools.partial(_select, selector)
    text = locate.collapse(target.get_text())
    if text in found and target.string is not None:
        code = f"{{var}}.find_all({target.name!r}, string=lambda s: s and s.strip() == {text!r})"
        yield code, functools.partial(_named, target.name, text)
