"""A filter or search form whose results box already holds the default results.

Skill: following the request to its block (the table's heading, the listing's heading),
getting past a POST form (a report filter with "Region"/"Period" selects, or a search
with a sort select and a checkbox) and reading the table or the item names that the
server rendered into the results box under it (all regions, all items).
Shortcuts resisted: this is the solvable twin of ``form_submission`` (same requests,
pools, layout, form and results box), so "a POST form under the heading means abstain"
scores 0; the form's own option labels and the "Showing: ..." line are not data; decoy
tables (often the same subject, another period) and decoy listings sit beside the block.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    # Half table_as_dicts, half item_list (``result_forms.TEMPLATES``), as
    # ``form_submission``.
    return twin_pages.generated(slot_pages.form_page(rng, with_defaults=True), None)


ARCHETYPE = ArchetypeSpec(
    id="form_default_results",
    category=Category.FORMS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A table or listing rendered as a filter form's default results, under the form.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
    solution_of="form_submission",
)
