"""A labelled row's answer rule: its accepted values under its normaliser, or "not here"."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bs4_env.pages.normalizers import Normalizer
from bs4_env.tasks.model import JSONValue

NOT_ON_PAGE = "or null when the page does not give it"
SHAPES = {
    "text": "a string",
    "decimal": 'the number as a string (e.g. "1299.00")',
    "date": 'an ISO date string "YYYY-MM-DD"',
    "url": "an absolute URL string",
    "exact": "a JSON value",
}
DEFAULT_SCHEMAS = {kind: f"{shape}, {NOT_ON_PAGE}" for kind, shape in SHAPES.items()}
"""The answer shape a row shows unless it sets ``answer_schema``; the same whether or not
the row's label is null, so the shape never tells which."""


def answer_shape(rule: Normalizer) -> str:
    """What a value of ``rule`` looks like, in words (lists and records spelled out)."""
    if rule.kind == "list":
        order = "in the page's order" if rule.options["ordered"] else "in any order"
        return f"a JSON list, {order}, each item {answer_shape(rule.parts['item'])}"
    if rule.kind == "record":
        fields = "; ".join(
            f"{json.dumps(name)}: {answer_shape(p)}" for name, p in rule.parts.items()
        )
        return f"a JSON object with exactly these keys: {{{fields}}}"
    return SHAPES[rule.kind]


def default_answer_schema(rule: Normalizer | str) -> str:
    """The default answer shape of a rule, or of a scalar kind given by name."""
    if isinstance(rule, str):
        return DEFAULT_SCHEMAS[rule]
    return f"{answer_shape(rule)}, {NOT_ON_PAGE}"


@dataclass(frozen=True)
class AcceptedAnswers:
    """``matches(answer)``: the answer equals one accepted value under the row's normaliser;
    for a row labelled null ("not on this page") only a null answer matches."""

    values: tuple[JSONValue, ...]
    normalizer: Normalizer

    @property
    def not_on_page(self) -> bool:
        return self.values == (None,)

    def matches(self, answer: JSONValue) -> bool:
        if self.not_on_page or answer is None:
            return self.not_on_page and answer is None
        return any(self.normalizer.same(answer, value) for value in self.values)
