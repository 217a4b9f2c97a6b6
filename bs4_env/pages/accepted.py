"""A labelled row's answer rule: its accepted values under its normaliser, or "not here"."""

from __future__ import annotations

from dataclasses import dataclass

from bs4_env.pages.normalizers import Normalizer
from bs4_env.tasks.model import JSONValue

NOT_ON_PAGE = "or null when the page does not give it"
DEFAULT_SCHEMAS = {
    "text": f"a string, {NOT_ON_PAGE}",
    "decimal": f'the number as a string (e.g. "1299.00"), {NOT_ON_PAGE}',
    "date": f'an ISO date string "YYYY-MM-DD", {NOT_ON_PAGE}',
    "url": f"an absolute URL string, {NOT_ON_PAGE}",
    "exact": f"a JSON value, {NOT_ON_PAGE}",
}
"""The answer shape a row shows unless it sets ``answer_schema``; the same whether or not
the row's label is null, so the shape never tells which."""


def default_answer_schema(kind: str) -> str:
    return DEFAULT_SCHEMAS[kind]


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
