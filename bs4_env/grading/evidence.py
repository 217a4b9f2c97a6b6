"""Check that abstention evidence locates the one element that blocks static extraction.

Evidence must contain one of the task's seed-random evidence tokens (the blocking
element's id, script URL or image/PDF URL), so bare markup such as ``<`` or unrelated text
from the page cannot pass. And it must not be an inventory: evidence that also names an
identifier of any other page element (see ``page_identifiers``) scores 0. The elements
that carry the task's tokens (e.g. a mount div and the script that fills it) and their
ancestors count as the one blocking element.
"""

from __future__ import annotations

from bs4_env.grading.page_identifiers import page_identifiers
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
    if not any(token in evidence for token in tokens):
        return "evidence does not identify the element that blocks extraction"
    index = page_identifiers(tuple(task.pages.items()), tokens)
    others = index.others_named(evidence)
    if others:
        return (
            f"evidence also names other page elements ({len(others)} identifiers, e.g. "
            f"{others[0]!r}); cite only the one element that blocks extraction"
        )
    return None
