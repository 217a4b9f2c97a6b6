"""Find the top-level JSON values in free text in one linear pass.

A candidate starts at a ``{`` or ``[`` outside any other candidate and ends where its
brackets balance; inside a candidate, string literals are skipped whole, so brackets in
them do not count (outside, quotes are prose). If a candidate never closes (prose with a
stray ``{``), the closed objects inside it are the candidates instead. Every character is
looked at a bounded number of times, so the time is linear in the text, and nesting deeper
than the cap stops the scan before ``json`` could recurse.

Runs of bracket structures that cannot hold a status object (no ``"status"`` string, no
``\\u`` escape, at most ``SKIP_DEPTH`` deep and within the depth budget) are skipped by one
regex match instead of a loop step per bracket: ``{}{}{}...``, ``[[]][[]]...`` or a long
array of small objects costs C time only.
"""

from __future__ import annotations

import re

_STRUCTURAL = re.compile(r'[{}\[\]"]')
# The rest of a string literal after its opening quote: to the closing quote, or to the end
# of the text if it never closes (possessive: an unterminated string costs one pass).
_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.DOTALL)
# A string literal that is not "status" and has no \u escape (so cannot spell "status").
_PLAIN_STRING = r'"(?!status")(?:[^"\\]|\\[^u])*+"'
SKIP_DEPTH = 4
"""Status-free structures up to this deep are skipped by one regex match."""


def _pairs(depth: int, between: str) -> re.Pattern[str]:
    """Consecutive status-free bracket structures nested at most ``depth`` deep.

    ``between`` is what may separate two of them (prose outside candidates, quote-free JSON
    inside). Brackets are matched as a class (``{]`` passes): that only decides extent,
    and the lexer pops any closer the same way.
    """
    pair = rf"[{{\[](?:[^{{}}\[\]\"]|{_PLAIN_STRING})*+[}}\]]"
    for _ in range(depth - 1):
        pair = rf"[{{\[](?:[^{{}}\[\]\"]|{_PLAIN_STRING}|{pair})*+[}}\]]"
    return re.compile(rf"{pair}(?:{between}*+{pair})*+")


# Index k: structures at most k deep (k = 0 never skips, for depth budgets used up).
_PROSE_RUNS = [None, *(_pairs(k, r"[^{}\[\]]") for k in range(1, SKIP_DEPTH + 1))]
_INNER_RUNS = [None, *(_pairs(k, r'[^{}\[\]"]') for k in range(1, SKIP_DEPTH + 1))]


def _skip(runs: list[re.Pattern[str] | None], budget: int, text: str, pos: int) -> int:
    """Where a run of status-free structures starting at ``pos`` ends (``pos`` if none)."""
    pattern = runs[max(0, min(SKIP_DEPTH, budget))]
    if pattern is None:
        return pos
    match = pattern.match(text, pos)
    return match.end() if match is not None else pos


class NestingError(ValueError):
    """Brackets nested deeper than the allowed depth."""


def _outermost(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans not contained in another one (spans are nested or disjoint)."""
    kept: list[tuple[int, int]] = []
    reach = -1
    for start, end in sorted(spans):
        if start >= reach:
            kept.append((start, end))
            reach = end
    return kept


def top_level_spans(text: str, max_depth: int) -> list[tuple[int, int]]:
    """``(start, end)`` of every top-level candidate that may hold a status, in order.

    Candidates skipped as flat pairs without a status are left out. Raises ``NestingError``
    when brackets nest deeper than ``max_depth``.
    """
    spans: list[tuple[int, int]] = []
    stack: list[int] = []  # positions of the open brackets of the current candidate
    closed: list[tuple[int, int]] = []  # objects closed inside the current candidate
    pos = 0
    while (match := _STRUCTURAL.search(text, pos)) is not None:
        pos = match.start()
        char = match.group()
        if not stack:
            if char == '"' or char in "}]":
                pos += 1  # quotes and closing brackets in prose
                continue
            skipped = _skip(_PROSE_RUNS, max_depth, text, pos)
            if skipped > pos:
                pos = skipped
                continue
            stack.append(pos)
            closed = []
            pos += 1
            continue
        if char == '"':
            rest = _STRING_REST.match(text, pos + 1)
            pos = rest.end() if rest is not None else len(text)
            continue
        if char in "{[":
            skipped = _skip(_INNER_RUNS, max_depth - len(stack), text, pos)
            if skipped > pos:
                pos = skipped
                continue
            stack.append(pos)
            if len(stack) > max_depth:
                raise NestingError(f"JSON nested deeper than {max_depth} levels")
            pos += 1
            continue
        opened = stack.pop()
        pos += 1
        if char == "}" and text[opened] == "{":
            closed.append((opened, pos))
        if not stack:
            spans.append((opened, pos))
    if stack:
        # Never closed: the text to the end belongs to it; its closed objects are the
        # candidates (e.g. "I used { here" before the real answer).
        spans.extend(_outermost(closed))
    return spans
