"""Realistic first-try mistakes in a working program, each proved to fail here.

Each operator rewrites one literal of the working program into what a person (or a small
model) often writes first, and the host run here classifies how the result fails:

- ``wrong_class``: a class in a selector or ``class_=`` guessed (``review-author`` -> ``author``,
  ``price`` -> ``product-price``);
- ``wrong_tag``: the right class with a guessed tag name (``span.price`` -> ``div.price``);
- ``wrong_container``: ``find_parent('section')`` where the block is a ``div`` (or the reverse);
- ``wrong_key``: a dictionary or attribute key guessed (``['priceCurrency']`` ->
  ``['price_currency']``, ``['href']`` -> ``['url']``);
- ``no_none_check``: ``el.get('x')`` written ``el['x']``, on elements that lack it.

The failure is what the program does here: ``none`` (``AttributeError``/``TypeError`` on a
``None`` from ``find``/``select_one``), ``key`` (``KeyError``), ``no_match`` (``StopIteration``
or ``IndexError`` from an empty selection) or ``empty`` (it ran and printed nothing, ``[]``,
``{}``, ``""`` or ``None``). The sandbox replay is what the episode shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from bs4_env.sft.plan import host_outcome
from bs4_env.tasks.model import Task

EMPTY_OUTPUTS = ("", "[]", "{}", '""', "None", "null")
_SELECTOR = re.compile(r"""\.(select_one|select)\((['"])(.+?)\2""")
_CLASS_KW = re.compile(r"""class_=(['"])([A-Za-z_][\w-]*)\1""")
_CSS_CLASS = re.compile(r"(?<![\w-])\.([A-Za-z_][\w-]*)")
_TAG_CLASS = re.compile(r"(?<![\w.#-])([a-z][a-z0-9]*)\.([A-Za-z_][\w-]*)")
_PARENT = re.compile(r"""\.find_parent\((['"])(section|div|article|li)\1\)""")
_KEY = re.compile(r"""\[(['"])([A-Za-z_][\w-]*)\1\]""")
_GET = re.compile(r"""\b([a-z_]\w*)\.get\((['"])([A-Za-z_][\w-]*)\2\)""")
_GUESS_TAGS = ("div", "span", "p", "li", "a")
_GUESS_PARENTS = {"section": "article", "div": "section", "article": "section", "li": "div"}
_KEY_SYNONYMS = {
    "href": "url",
    "src": "url",
    "content": "value",
    "datetime": "date",
    "name": "title",
    "title": "name",
    "price": "amount",
    "value": "text",
    "items": "products",
    "label": "name",
}


@dataclass(frozen=True)
class Mistake:
    """A broken version of the working code: what was changed and how it fails here."""

    kind: str
    code: str
    wrong: str
    right: str
    failure: str
    line: int
    """Index of the changed line in the code."""


def class_variants(name: str) -> list[str]:
    """Class names a person guesses for ``name``: a part of it, the other separator, a
    common prefix or suffix."""
    parts = [p for p in re.split(r"[-_]", name) if p]
    out: list[str] = []
    if len(parts) > 1:
        out += [parts[-1], parts[0], "_".join(parts) if "-" in name else "-".join(parts)]
    else:
        out += [f"{name}-value", f"product-{name}", f"{name}s", f"item-{name}"]
    return [v for v in dict.fromkeys(out) if v != name and len(v) >= 3]


def key_variants(key: str) -> list[str]:
    """Keys a person guesses for ``key``: snake/camel case swapped, a synonym, a plural."""
    out: list[str] = []
    if "_" in key:
        head, *rest = key.split("_")
        out.append(head + "".join(p.title() for p in rest))
    camel = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()
    if camel != key:
        out.append(camel)
    if key in _KEY_SYNONYMS:
        out.append(_KEY_SYNONYMS[key])
    out.append(key[:-1] if key.endswith("s") else f"{key}s")
    return [v for v in dict.fromkeys(out) if v != key]


def failure_of(task: Task, code: str) -> str | None:
    """How ``code`` fails on the task's page here (see the module docstring), or None."""
    stdout, error = host_outcome(task, code)
    if error is None:
        return "empty" if stdout.strip() in EMPTY_OUTPUTS else None
    message = str(error)
    if isinstance(error, AttributeError | TypeError) and "NoneType" in message:
        return "none"
    if isinstance(error, KeyError):
        return "key"
    if isinstance(error, StopIteration | IndexError):
        return "no_match"
    return None


def _edits(code: str) -> Iterator[tuple[str, int, str, str, str]]:
    """(kind, line index, new line, wrong literal, right literal) for every candidate edit."""
    for index, line in enumerate(code.splitlines()):
        for call in _SELECTOR.finditer(line):
            selector = call.group(3)
            for match in _CSS_CLASS.finditer(selector):
                for guess in class_variants(match.group(1)):
                    new = selector[: match.start(1)] + guess + selector[match.end(1) :]
                    yield "wrong_class", index, _swap(line, call, selector, new), guess, match[1]
            for match in _TAG_CLASS.finditer(selector):
                for guess in (t for t in _GUESS_TAGS if t != match.group(1)):
                    new = selector[: match.start(1)] + guess + selector[match.end(1) :]
                    yield "wrong_tag", index, _swap(line, call, selector, new), guess, match[1]
        for match in _CLASS_KW.finditer(line):
            for guess in class_variants(match.group(2)):
                new = line[: match.start(2)] + guess + line[match.end(2) :]
                yield "wrong_class", index, new, guess, match.group(2)
        for match in _PARENT.finditer(line):
            guess = _GUESS_PARENTS[match.group(2)]
            new = line[: match.start(2)] + guess + line[match.end(2) :]
            yield "wrong_container", index, new, guess, match.group(2)
        for match in _KEY.finditer(line):
            for guess in key_variants(match.group(2)):
                new = line[: match.start(2)] + guess + line[match.end(2) :]
                yield "wrong_key", index, new, guess, match.group(2)
        for match in _GET.finditer(line):
            var, quote, attr = match.groups()
            new = line[: match.start()] + f"{var}[{quote}{attr}{quote}]" + line[match.end() :]
            yield "no_none_check", index, new, f"{var}[{attr!r}]", attr


def _swap(line: str, call: re.Match[str], old: str, new: str) -> str:
    start, end = call.span(3)
    return line[:start] + new + line[end:]


def mistakes(task: Task, code: str, limit: int = 6) -> list[Mistake]:
    """Up to ``limit`` broken versions of ``code`` that fail here (at most one per changed
    literal), in the code's order."""
    lines = code.splitlines()
    found: list[Mistake] = []
    seen: set[tuple[int, str]] = set()
    for kind, index, new_line, wrong, right in _edits(code):
        if (index, right) in seen or new_line == lines[index]:
            continue
        broken = "\n".join([*lines[:index], new_line, *lines[index + 1 :]])
        failure = failure_of(task, broken)
        if failure is None:
            continue
        seen.add((index, right))
        found.append(Mistake(kind, broken, wrong, right, failure, index))
        if len(found) >= limit:
            break
    return found
