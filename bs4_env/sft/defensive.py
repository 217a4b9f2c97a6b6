"""Defensive first programs: check the first lookup for ``None`` before using it.

The working program is rewritten so that, right after its first top-level lookup
(``x = soup.find(...)``, ``select_one``, ``find_parent``), it tests ``x is None`` and then
prints a short listing of what the page has (its ids, headings or classes) instead of
failing; otherwise it runs on as before. Kept only where, run here, it prints exactly what the
working program prints (so the answer is read off it the same way).
"""

from __future__ import annotations

import dataclasses
import re

from bs4_env.sft.plan import Plan, host_outcome
from bs4_env.tasks.model import Task

_LOOKUP = re.compile(r"^([a-z_]\w*) = .*\.(?:find|select_one|find_parent)\(")
_LISTINGS = {
    "id": "soup.find_all(id=True)",
    "heading": "soup.find_all(['h1', 'h2', 'h3', 'h4'])",
    "class": "soup.find_all(class_=True)",
}
_HEADING = re.compile(r"['\"]h[1-4]['\"]")
_NOTE = "Checking that the lookup finds something before using it."


def _listing(line: str) -> str:
    if "id=" in line:
        return _LISTINGS["id"]
    if _HEADING.search(line):
        return _LISTINGS["heading"]
    return _LISTINGS["class"]


def guarded(code: str) -> str | None:
    """``code`` with a ``None`` check after its first top-level lookup, or None."""
    lines = code.splitlines()
    for index, line in enumerate(lines):
        match = _LOOKUP.match(line)
        if match is None or index == len(lines) - 1:
            continue
        var = match.group(1)
        rest = lines[index + 1 :]
        if any('"""' in r or "'''" in r for r in rest):
            return None  # indenting a multi-line string would change it
        guard = [
            f"if {var} is None:",
            "    print('not found; the page has:')",
            f"    for el in {_listing(line)}[:15]:",
            "        print(el.name, el.get('id'), el.get('class'), "
            "el.get_text(' ', strip=True)[:50])",
            "else:",
        ]
        body = [f"    {r}" if r.strip() else r for r in rest]
        return "\n".join([*lines[: index + 1], *guard, *body])
    return None


def with_defensive(task: Task, plan: Plan) -> Plan | None:
    """``plan`` whose last step is its guarded version (module docstring), or None."""
    if task.is_multipage or plan.answer_from == "limit" or plan.budget_calls is not None:
        return None
    step = plan.steps[-1]
    code = guarded(step.argument) if step.tool == "run_python" else None
    if code is None:
        return None
    before, error = host_outcome(task, step.argument)
    after, guarded_error = host_outcome(task, code)
    if error is not None or guarded_error is not None or before != after:
        return None
    # The guarded program is the first call: its listing stands in for a separate inspection.
    steps = (dataclasses.replace(step, argument=code, note=_NOTE),)
    tags = tuple(tag for tag in plan.tags if tag != "inspect")
    return dataclasses.replace(plan, steps=steps, tags=(*tags, "defensive"))
