"""Abstention episodes for limitation pages: look at the request's block, cite the blocker.

The plan anchors on the request's heading, prints the elements of its block that carry an id
or a source (the blocking element among them), sometimes prints the blocker itself, and
abstains citing that one element as ``<tag id="...">``. The reason is the task's own; the
replay's grade proves the evidence locates the blocking element and nothing else.
"""

from __future__ import annotations

from random import Random

from bs4 import Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, Step, host_run, soup_line
from bs4_env.tasks.model import Task

_OUTLINE_LIMIT = 15
_OUTLINE = (
    "for el in box.find_all(lambda t: t.has_attr('id') or t.has_attr('src'))[:{limit}]:\n"
    "    print(el.name, el.get('id'), el.get('src'), el.get_text(' ', strip=True)[:40])"
)


def _blocker(task: Task) -> Tag | None:
    """The element whose id is one of the task's evidence tokens (not a script)."""
    if task.limitation is None:
        return None
    soup = locate.parse(task.html)
    for token in task.limitation.evidence_tokens:
        tag = soup.find(id=token)
        if isinstance(tag, Tag) and tag.name != "script":
            return tag
    return None


def write_abstain(task: Task, rng: Random, parser: str) -> Plan | None:
    """An abstention plan for a limitation task, or None where no anchor reaches the blocker."""
    if task.solvable or task.limitation is None or (blocker := _blocker(task)) is None:
        return None
    root = blocker.find_parents()[-1]
    anchor = locate.heading_anchor(root, locate.quoted_literals(task.query))  # type: ignore[arg-type]
    if anchor is None or (box := locate.container(anchor[1], [blocker])) is None:
        return None
    literal, heading = anchor
    listed = box.find_all(lambda t: t.has_attr("id") or t.has_attr("src"))[:_OUTLINE_LIMIT]
    if not any(tag is blocker for tag in listed):
        return None
    if heading.string is not None and heading.string == literal:
        find = f"soup.find({heading.name!r}, string={literal!r})"
    else:
        find = f"soup.find({heading.name!r}, string=lambda s: s and s.strip() == {literal!r})"
    head = [soup_line(parser), f"title = {find}", f"box = title.find_parent({box.name!r})"]
    outline = "\n".join([*head, _OUTLINE.format(limit=_OUTLINE_LIMIT)])
    if not host_run(task, outline):
        return None
    blocker_id = str(blocker["id"])
    steps = [Step("run_python", outline)]
    if rng.random() < 0.5:
        look = f"{soup_line(parser)}\nprint(str(soup.find(id={blocker_id!r}))[:400])"
        steps.append(Step("run_python", look))
    limit = {
        "reason": task.limitation.reasons[0].value,
        "evidence": f'<{blocker.name} id="{blocker_id}">',
    }
    return Plan("abstain", tuple(steps), "limit", limit=limit, tags=("inspect",))
