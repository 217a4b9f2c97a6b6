"""A row's comparison rule (``Normalizer``), shared by the scalar and the structured kinds.

The rule types live apart from both kinds' modules so that the list and record kinds, which
are built from other rules, can use them without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bs4_env.tasks.model import JSONValue

Canonical = Callable[[JSONValue], Hashable | None]
MAX_SHOWN_CHARS = 120
"""Longest rendering of a value in an error message."""


class NormalizationError(ValueError):
    """A row's ``normalization`` is unknown or has bad options; the message says which."""


def clipped_repr(value: object) -> str:
    """``repr(value)``, cut to ``MAX_SHOWN_CHARS`` (a whole list label is too long to show)."""
    text = repr(value)
    return text if len(text) <= MAX_SHOWN_CHARS else text[: MAX_SHOWN_CHARS - 3] + "..."


@dataclass(frozen=True)
class Normalizer:
    """One row's comparison rule: ``canonical(value)`` is ``None`` for a value of another kind.

    ``label_canonical`` reads an accepted value; it differs from ``canonical`` for ``decimal``,
    whose labels are plain decimals ("1.234" is one point two three four, never inferred to be
    a thousands grouping), and for ``list``, whose labels may hold no blank item. ``parts`` are
    the rules a structured kind is built from (``list``: ``{"item": ...}``; ``record``: one per
    field); ``problem`` says why a label is no value of a structured kind."""

    kind: str
    canonical: Canonical
    options: Mapping[str, Any]
    label_canonical: Canonical
    parts: Mapping[str, Normalizer] = field(default_factory=lambda: MappingProxyType({}))
    problem: Callable[[JSONValue], str | None] | None = None

    def same(self, answer: JSONValue, label: JSONValue) -> bool:
        """Whether ``answer`` equals ``label`` under this rule (never raises)."""
        mine = self.canonical(answer)
        return mine is not None and mine == self.label_canonical(label)

    def label_problem(self, label: JSONValue) -> str | None:
        """Why ``label`` is no accepted value of this rule, or ``None`` when it is one."""
        if self.problem is not None:
            return self.problem(label)
        if self.label_canonical(label) is None:
            return f"is not a {self.kind!r} value"
        return None
