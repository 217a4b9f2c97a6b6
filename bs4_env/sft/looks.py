"""Generic look-at-the-page programs, written after a failed first try.

A look reruns the failed program's lines up to the statement that failed, then prints what
is there instead of what was assumed: the classes in the block, an element's ancestors, a
dictionary's keys or an element's attributes, or the block's own markup. It never uses the
answer. It is kept only where, run here, it prints the literal the failed try got wrong the
right way (so the look shows the fix) in under ``MAX_LOOK_CHARS`` characters; ``text_near``
prints the text around a name from the request (the budget episodes' first call).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from bs4_env.sft import locate
from bs4_env.sft.mistakes import Mistake
from bs4_env.sft.plan import host_outcome, soup_line
from bs4_env.tasks.model import Task

MAX_LOOK_CHARS = 1500
_ASSIGNED = re.compile(r"^([a-z_]\w*) = ")
_BASE = re.compile(r"\b([a-z_]\w*)\.(?:select_one|select|find_all|find|find_parent)\(")
_OBJECT = re.compile(r"""([a-z_]\w*(?:\[(['"])[^'"]+\2\])*)\[(['"])([\w-]+)\3\]""")
_CLASSES = (
    "for el in {var}.find_all(class_=True)[:25]:\n"
    "    print(el.name, el.get('class'), el.get_text(' ', strip=True)[:40])"
)
_CLASS_NAMES = "print(sorted({{c for el in {var}.find_all(class_=True) for c in el['class']}}))"
_PARENTS = "print([(p.name, p.get('class')) for p in {var}.parents][:6])"
_MARKUP = "print(str({var})[:1200])"
_TEXT = "print({var}.get_text(' ', strip=True)[:1200])"
_KEYS = "print(list({obj}.keys()))"
_ATTRS = "print({obj}.attrs)"
_LOOP = re.compile(r"for ([a-z_]\w*) in ([a-z_]\w*\.(?:select|find_all)\((?:[^()]|\([^()]*\))*\))")
_LOOP_ATTRS = "for {var} in {items}[:5]:\n    print({var}.name, {var}.attrs)"
_NAME = re.compile(r"\b[A-Z][\w'’.-]+(?: [A-Z0-9][\w'’.-]+)+")


def _statement_start(lines: list[str], index: int) -> int:
    """The first line of the top-level statement holding line ``index``."""
    while index > 0 and (lines[index][:1].isspace() or lines[index].startswith((")", "]", "}"))):
        index -= 1
    return index


def _scopes(prefix: list[str], failing: str) -> list[str]:
    """Variables to look in: the failed call's own base, then the prefix's assignments
    (latest first), then the soup."""
    assigned = [m.group(1) for line in prefix if (m := _ASSIGNED.match(line))]
    bases = [m.group(1) for m in _BASE.finditer(failing) if m.group(1) in assigned]
    return list(dict.fromkeys([*bases, *reversed(assigned), "soup"]))


def _listings(mistake: Mistake, scope: str, failing: str) -> Iterator[str]:
    if mistake.kind in ("wrong_class", "wrong_tag"):
        yield _CLASSES.format(var=scope)
        yield _CLASS_NAMES.format(var=scope)
    if mistake.kind == "wrong_container":
        for base in (m.group(1) for m in _BASE.finditer(failing)):
            yield _PARENTS.format(var=base)
    if mistake.kind in ("wrong_key", "no_none_check"):
        for match in _OBJECT.finditer(failing):
            if match.group(4) == mistake.wrong:
                yield _KEYS.format(obj=match.group(1))
                yield _ATTRS.format(obj=match.group(1))
        for match in _LOOP.finditer(failing):
            yield _LOOP_ATTRS.format(var=match.group(1), items=match.group(2))
    yield _MARKUP.format(var=scope)


def _shows(stdout: str, literal: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(literal)}(?![\w-])", stdout) is not None


def look_after(task: Task, working: str, mistake: Mistake) -> str | None:
    """A look program for ``mistake`` in ``working`` (see the module docstring), or None."""
    lines = working.splitlines()
    start = _statement_start(lines, mistake.line)
    prefix = [line for line in lines[:start] if line != "import json"]
    failing = "\n".join(lines[start : mistake.line + 1])
    if not any(line.startswith("soup =") for line in prefix):
        return None
    for scope in _scopes(prefix, failing):
        for listing in _listings(mistake, scope, failing):
            code = "\n".join([*prefix, listing])
            stdout, error = host_outcome(task, code)
            if error is None and len(stdout) <= MAX_LOOK_CHARS and _shows(stdout, mistake.right):
                return code
    return None


def request_names(task: Task) -> list[str]:
    """Names from the request to look for on the page: its quoted literals, then its
    capitalised multi-word names."""
    names = [*locate.quoted_literals(task.query), *_NAME.findall(task.query)]
    return [n for n in dict.fromkeys(names) if len(n) >= 4]


def text_near(task: Task, parser: str) -> Iterator[str]:
    """Programs that print the block around a name from the request (its text, or its
    markup), in the order to try."""
    for name in request_names(task):
        find = f"hit = soup.find(string=lambda s: s and {name!r} in s)"
        block = "box = hit.find_parent(['section', 'article', 'li', 'tr', 'form', 'div'])"
        for show in ("print(box.get_text(' ', strip=True)[:1200])", "print(str(box)[:1200])"):
            yield "\n".join([soup_line(parser), find, block, show])


def block_prints(working: str) -> Iterator[str]:
    """Programs that rerun ``working`` up to one of its top-level assignments and print that
    element's text (or markup), latest assignment first."""
    lines = working.splitlines()
    found = []
    for index, line in enumerate(lines):
        match = _ASSIGNED.match(line)
        complete = index + 1 < len(lines) and not lines[index + 1][:1].isspace()
        if match is None or line.startswith("soup =") or not complete:
            continue
        prefix = [kept for kept in lines[: index + 1] if kept != "import json"]
        if any(kept.startswith("soup =") for kept in prefix):
            found.append((prefix, match.group(1)))
    for prefix, var in reversed(found):
        for show in (_TEXT, _MARKUP):
            yield "\n".join([*prefix, show.format(var=var)])
