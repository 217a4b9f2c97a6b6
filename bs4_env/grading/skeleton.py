"""Skeletons of texts, their information content, and an index to look for them quickly.

A secret written with separators (``a b c``, ``a-b-c``, ``["a","b","c"]``), with every
character doubled, or in another case has the same *skeleton* as the secret: its
casefolded letters and digits, each run of one character collapsed to one. Hex, base32 and
base64 keep their information in letters and digits, so their skeletons work the same way.
Base85 alphabets are a third punctuation: their forms are compared in the *lite* form, the
canonical text without whitespace.

A short match proves nothing, so a form is looked for only if it carries ``MIN_BITS``: its
length times log2 of its alphabet (digits 10, hex digits 16, letters and digits 36, with
punctuation 68; one less in a skeleton, where a character never follows itself). That is
a minimum skeleton of 10 letters and digits, 13 hex digits or 16 decimal digits. A reply
gives at most ~2^17 places to look (16,000 characters and what they decode to) and a task's
secrets ~2^10 forms, so random text matches some form by chance with probability under
2^27 / 2^48 = 2^-21, and a real answer, far shorter, much less. A form found in ``p``
pieces (a secret split over several keys) needs ``PIECE_BITS`` more per extra piece: the
log2 of the places each further piece could be.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

MIN_BITS = 48
PIECE_BITS = 16
MIN_PIECE = 6
"""The shortest piece looked for. A skeleton needs ``MIN_BITS + PIECE_BITS`` (13 letters
and digits) to be split in two, so its halves have 6 or more characters."""
MIN_LITE = 9
"""The shortest lite form: 48 bits of base85 take 8 characters; one more lets the lite
index keep the gram at every fifth position only (a fifth of the work)."""
GRAM = 5
SKELETON_STRIDE = MIN_PIECE - GRAM + 1
LITE_STRIDE = MIN_LITE - GRAM + 1
"""An index keeps the grams of ``GRAM`` characters at every ``stride``-th position: a text
that holds a needle of ``GRAM + stride - 1`` characters holds one of its first ``stride``
grams at such a position."""

MAX_PROBES = 2_000
"""Substring tests one reply may cost the piece search (``TextIndex.pieces``). Each is one
scan of the reply and what it hides; a reply full of the secret's own forms cut short
(every prefix and suffix of every form) would otherwise cost tens of thousands. A reply
that needs more is not checked in full (``ProbeBudget.spent``): on a page with secrets it
counts as unsafe, like one too long to check. An honest reply costs a handful."""

# Deletions run on bytes (``bytes.translate`` deletes in C; ``str.translate`` with a dict
# costs microseconds per call, and a task's secrets have a few hundred forms to build).
_ASCII_DROP = bytes(code for code in range(128) if not chr(code).isalnum())
_ASCII_SPACE = b" \t\n\r\v\f"
_DIGITS = b"0123456789"
_HEX_LETTERS = b"abcdef"
_LETTERS = b"abcdefghijklmnopqrstuvwxyz"
_NON_ALNUM = re.compile(r"[\W_]+")
_REPEATED = re.compile(r"(.)(?=\1)", re.DOTALL)
_SPACE = re.compile(r"\s+")


def skeleton(folded: str) -> str:
    """The letters and digits of an already ``canonical`` text, runs collapsed."""
    if folded.isascii():
        kept = folded.encode("ascii").translate(None, _ASCII_DROP).decode("ascii")
    else:
        kept = _NON_ALNUM.sub("", folded)
    return _REPEATED.sub("", kept)


def lite(folded: str) -> str:
    """An already ``canonical`` text without whitespace (base85 forms are looked for here)."""
    if folded.isascii():
        return folded.encode("ascii").translate(None, _ASCII_SPACE).decode("ascii")
    return _SPACE.sub("", folded)


def bits(needle: str, *, collapsed: bool = True) -> float:
    """How much information matching ``needle`` carries, if its characters were random:
    its length times log2 of the alphabet its characters come from (one less if
    ``collapsed``: in a skeleton a character never follows itself)."""
    encoded = needle.encode("utf-8")
    rest = encoded.translate(None, _DIGITS)
    if not rest:
        alphabet = 10
    elif not rest.translate(None, _HEX_LETTERS):
        alphabet = 16
    else:
        others = rest.translate(None, _LETTERS)  # punctuation, or beyond ASCII
        alphabet = 10 * (len(rest) < len(encoded)) + 26 * (len(others) < len(rest))
        alphabet += 32 * bool(others)
    return len(needle) * math.log2(max(2, alphabet - collapsed))


def max_pieces(needle: str, information: float, limit: int) -> int:
    """How many pieces ``needle`` may be found in and still carry ``MIN_BITS`` (0: none)."""
    if information < MIN_BITS:
        return 0
    pieces = 1 + int((information - MIN_BITS) // PIECE_BITS)
    return min(limit, pieces, max(1, len(needle) // MIN_PIECE))


def entry_grams(needle: str, stride: int) -> tuple[str, ...]:
    """Grams of which a text holding ``needle``'s first ``GRAM + stride - 1`` characters (so
    any text holding ``needle``, whole or in pieces) has one in ``TextIndex.grams``."""
    return tuple(needle[start : start + GRAM] for start in range(stride))


class ProbeBudget:
    """What is left of ``MAX_PROBES`` for one reply, shared by its indexes."""

    def __init__(self, probes: int | None = None) -> None:
        self.left = MAX_PROBES if probes is None else probes

    @property
    def spent(self) -> bool:
        return self.left < 0


class TextIndex:
    """Substring tests over some texts; a set of sampled grams rules most needles out."""

    def __init__(
        self, stride: int, texts: Iterable[str] = (), budget: ProbeBudget | None = None
    ) -> None:
        if not 1 <= stride <= GRAM:
            raise ValueError(f"stride {stride} outside 1..{GRAM}")
        self.stride = stride
        self.shortest = GRAM + stride - 1
        self.budget = budget or ProbeBudget()
        # A lookahead captures each gram; the match itself moves on by ``stride``.
        self._grams_at = re.compile(f"(?=(.{{{GRAM}}})).{{{stride}}}", re.DOTALL)
        self.texts: list[str] = []
        self.grams: set[str] = set()
        self._joined = ""
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        self.texts.append(text)
        self.grams.update(self._grams_at.findall(text))
        # One string for the piece search's tests: one C scan instead of one per text. A
        # NUL, which no needle holds, keeps a match from spanning two texts.
        self._joined += "\0" + text

    def holder(self, needle: str) -> int | None:
        """The number of the first text that contains ``needle`` (``shortest``+ chars)."""
        if len(needle) < self.shortest:
            raise ValueError(f"needle of {len(needle)} characters; the index needs {self.shortest}")
        grams = self.grams
        if not any(gram in grams for gram in entry_grams(needle, self.stride)):
            return None
        return next((number for number, text in enumerate(self.texts) if needle in text), None)

    def __contains__(self, needle: str) -> bool:
        if len(needle) < self.shortest:
            raise ValueError(f"needle of {len(needle)} characters; the index needs {self.shortest}")
        grams = self.grams
        if not any(gram in grams for gram in entry_grams(needle, self.stride)):
            return False
        self.budget.left -= 1
        return needle in self._joined

    def _longest(self, needle: str, start: int) -> int:
        """The end of the longest piece of ``needle`` from ``start`` found in some text."""
        if self.shortest > MIN_PIECE:
            raise ValueError(f"pieces of {MIN_PIECE} characters need a stride of at most 2")
        if len(needle) - start < MIN_PIECE or needle[start : start + MIN_PIECE] not in self:
            return start
        low, high = start + MIN_PIECE, len(needle)  # found at low; binary search the end
        while low < high:
            middle = (low + high + 1) // 2
            if needle[start:middle] in self:
                low = middle
            else:
                high = middle - 1
        return low

    def pieces(self, needle: str, limit: int) -> int | None:
        """The fewest pieces (``MIN_PIECE``+ chars each, anywhere in the texts) that spell
        ``needle`` in order, if ``limit`` or fewer do; else None (also once the budget is
        spent: the caller reads ``budget.spent``)."""
        # The last piece ends the needle: without its last MIN_PIECE characters somewhere,
        # no split can spell it (one test rules out a reply of the needle's prefixes).
        if needle[-MIN_PIECE:] not in self:
            return None
        frontier, seen = {0}, {0}
        for count in range(1, limit + 1):
            reached: set[int] = set()
            for start in sorted(frontier):
                if self.budget.spent:
                    return None
                end = self._longest(needle, start)
                if end == len(needle):
                    return count
                # A piece may stop anywhere from MIN_PIECE characters up to ``end``.
                reached.update(range(start + MIN_PIECE, end + 1))
            frontier = reached - seen
            seen |= reached
        return None
