"""The requested table or listing only comes back after submitting a form.

Skill: following the request to its block (the table's heading, the listing's heading),
seeing that it holds a POST form (a report filter or a search) and an empty results box
(an ``aria-live`` container that only says to submit the form), that no copy of the data
exists anywhere else, and abstaining with the form's id or action (or the box's id) as
evidence instead of answering from another table or listing.
Shortcuts resisted: the requests are word-for-word the shared ``table_as_dicts`` and
``item_list`` requests with captions and listing titles from the same pools; the
solvable twin ``form_default_results`` has the very same form and box with the default
results already rendered in it, so "a POST form under the heading means abstain" scores
0 there; decoy tables (often the same subject, another period) and decoy listings sit
beside the block, so "the first table" or "the first list" answers wrongly.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks.html import slot_pages, twin_pages
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated, LimitReason


def generate(rng: Random) -> Generated:
    # Half table_as_dicts, half item_list (``result_forms.TEMPLATES``), as the solvable
    # twin ``form_default_results``.
    page = slot_pages.form_page(rng, with_defaults=False)
    return twin_pages.generated(page, LimitReason.FORM_SUBMISSION)


ARCHETYPE = ArchetypeSpec(
    id="form_submission",
    category=Category.LIMITATION,
    difficulty=Difficulty.MEDIUM,
    solvable=False,
    version=6,
    phase="phase2",
    description="The requested table or listing only comes back after posting a filter form.",
    answer_schema="in the shape the request's template gives",
    generate=generate,
)
