"""Check that abstention evidence points at the element that blocks static extraction."""

from __future__ import annotations

from bs4_env.tasks.model import Task

# Room for the blocking tag with its attributes, not for an inventory of every id on the page.
MAX_EVIDENCE_CHARS = 600


def evidence_problem(task: Task, evidence: str) -> str | None:
    """``None`` when the evidence cites the blocking element; otherwise why it does not.

    The evidence must contain one of the task's seed-random evidence tokens (the blocking
    element's id, script URL or image/PDF URL). Bare markup such as ``<`` or unrelated text
    from the page cannot contain one.
    """
    if task.limitation is None:
        return "this task has no limitation to cite"
    if not evidence.strip():
        return "evidence is empty"
    if len(evidence) > MAX_EVIDENCE_CHARS:
        return f"evidence is longer than {MAX_EVIDENCE_CHARS} characters"
    if any(tok in evidence for tok in task.limitation.evidence_tokens):
        return None
    return "evidence does not identify the element that blocks extraction"
