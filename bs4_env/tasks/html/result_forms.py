"""A filter or search form whose results box is empty, or already holds the default results.

A report filter ("Region", "Period") above a titled table, or a search form above a
product listing, posts to a seed-random action and shows what comes back in a results box.
On a ``form_submission`` page the box is empty until the form is sent; on its solvable
twin ``form_default_results`` the server already rendered the default results (all
regions, all items) into the same box. Both use the same form, box and layout
(``slot_tables``), half ``table_as_dicts`` and half ``item_list`` requests.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.rng import sample, token

TEMPLATES = ("table_as_dicts", "item_list")
_REGIONS = ("North", "South", "East", "West", "Central", "Online", "Export", "Wholesale")
_PERIODS = ("This quarter", "Last quarter", "Year to date", "Last 12 months")
_SORTS = ("Featured", "Price: low to high", "Price: high to low", "Newest", "Top rated")


def _options(values: list[str]) -> str:
    return "".join(
        f"<option{' selected' if i == 0 else ''}>{escape(v)}</option>" for i, v in enumerate(values)
    )


def _fields(rng: Random, subject: str) -> tuple[str, str]:
    """The form's fields and submit button, and how the default results are described."""
    if subject == "table":
        regions = ["All regions", *sample(rng, _REGIONS, rng.randint(3, 5))]
        periods = sample(rng, _PERIODS, rng.randint(2, 4))
        fields = (
            f'<label>Region <select name="region">{_options(regions)}</select></label>'
            f'<label>Period <select name="period">{_options(periods)}</select></label>'
        )
        button = rng.choice(("Show figures", "Update", "Apply"))
        return fields + f'<button type="submit">{button}</button>', f"All regions, {periods[0]}"
    # The default order is the shop's own ("Featured"), which no field of a card gives.
    sorts = ["Featured", *sample(rng, _SORTS[1:], rng.randint(2, 4))]
    fields = (
        '<label>Search <input type="search" name="q" placeholder="Search this listing"></label>'
        f'<label>Sort by <select name="sort">{_options(sorts)}</select></label>'
        '<label><input type="checkbox" name="in_stock" value="1"> In stock only</label>'
    )
    button = rng.choice(("Search", "Apply filters", "Go"))
    return fields + f'<button type="submit">{button}</button>', f"All items, sorted by {sorts[0]}"


@dataclass(frozen=True)
class ResultForm:
    """The form and its results box; the tokens are the form's id and action and the box id."""

    form_id: str
    action: str
    results_id: str
    form: str
    default: str

    @property
    def tokens(self) -> tuple[str, ...]:
        return (self.form_id, self.action, self.results_id)

    def box(self, inner: str) -> str:
        return (
            f'<div id="{self.results_id}" class="results" aria-live="polite" '
            f'data-form="{self.form_id}">{inner}</div>'
        )


def result_form(rng: Random, subject: str) -> ResultForm:
    """A POST form (a report filter for a ``table``, a search for a ``listing``)."""
    prefix = rng.choice(("filter", "query", "finder", "search"))
    form_id = f"{prefix}-{token(rng, 7)}"
    path = rng.choice(("reports/query", "search", "lookup", "results"))
    action = f"/{path}/{token(rng, 10)}"
    fields, default = _fields(rng, subject)
    method = rng.choice(("post", "POST"))
    form = (
        f'<form id="{form_id}" class="{subject}-filter" action="{action}" method="{method}">'
        f"{fields}</form>"
    )
    return ResultForm(form_id, action, f"results-{token(rng, 7)}", form, default)
