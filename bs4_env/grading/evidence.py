"""Check that abstention evidence locates the one element that blocks static extraction.

The blocker is the element that carries the task's evidence tokens with everything inside
it, plus the element its script fills (see ``page_identifiers``). Evidence must identify it:
contain one of the seed-random tokens, or a whole id or URL value of the blocker (its
opening tag, ``form#challenge-x``, the widget's ``data-sitekey``, its sign-in URL without
the ``ref=`` parameter), so bare markup such as ``<`` or unrelated text cannot pass. And it
must not be an inventory: evidence in which an identifier of any element outside the
blocker and its path occurs anywhere, as a substring, scores 0. Substring, not word: a run
glued with ``+`` or with nothing between the ids names every id in it, just as a token is
found inside any run. (Another element's identifier that the blocker's own markup contains,
such as ``/stores`` in its ``/login?next=/stores/4xj953``, is part of citing the blocker.)
Matching is on ``normal_form`` (entities and percent escapes undone, case folded), so
spelling the inventory in capitals or escapes changes nothing.
"""

from __future__ import annotations

from bs4_env.grading.identifiers import normal_form
from bs4_env.grading.page_identifiers import Kind, page_identifiers
from bs4_env.tasks.model import Task

# Room for the blocking tag with its attributes, not for an inventory of every id on the page.
MAX_EVIDENCE_CHARS = 600


def evidence_problem(task: Task, evidence: str) -> str | None:
    """``None`` when the evidence cites the blocking element alone; otherwise why not."""
    if task.limitation is None:
        return "this task has no limitation to cite"
    if not evidence.strip():
        return "evidence is empty"
    if len(evidence) > MAX_EVIDENCE_CHARS:
        return f"evidence is longer than {MAX_EVIDENCE_CHARS} characters"
    tokens = task.limitation.evidence_tokens
    index = page_identifiers(tuple(task.pages.items()), tokens)
    text = normal_form(evidence)
    found = index.named_in(text)
    named = any(token in evidence for token in tokens)
    if not named and index.locating.isdisjoint(found):
        return "evidence does not identify the element that blocks extraction"
    others = sorted(ident for ident in found if index.kinds[ident] is Kind.OTHER)
    if others:
        return (
            f"evidence also names other page elements ({len(others)} identifiers, e.g. "
            f"{others[0]!r}); cite only the one element that blocks extraction"
        )
    return None
