"""Abstention episodes for limitation pages: look at the request's block, print the blocker,
cite what was printed.

The plan anchors on the request's heading and prints the elements of its block that carry an
id or a source (the blocking element among them); most episodes then print the blocking
element itself (its markup, its opening tag or its attributes). The evidence is copied from
those printed lines, in one of several forms (the opening tag, ``id="..."``, the bare id, a
URL or ``data-sitekey`` value, ``name="value"``), and only a form the grader's evidence rule
accepts here is used (``evidence_problem``), so every abstention cites text the episode's
own tool output showed. The reason is the task's own; the replay's grade decides.
"""

from __future__ import annotations

import re
from random import Random

from bs4 import Tag

from bs4_env.grading.evidence import evidence_problem
from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, Step, host_run, soup_line
from bs4_env.tasks.model import Task

_OUTLINE_LIMIT = 15
_OUTLINE = (
    "for el in box.find_all(lambda t: t.has_attr('id') or t.has_attr('src'))[:{limit}]:\n"
    "    print(el.name, el.get('id'), el.get('src'), el.get_text(' ', strip=True)[:40])"
)
# Ways to print the blocker once its id is known (from the outline's output).
_LOOKS = (
    "print(str(soup.find(id={id!r}))[:300])",
    "el = soup.find(id={id!r})\nprint(el.name, el.attrs)",
    "el = soup.find(id={id!r})\nprint(str(el).split('>')[0] + '>')",
)
LOOK_SHARE = 0.8
MAX_EVIDENCE = 300
_OPENING_TAG = re.compile(r"<[a-z][a-z0-9]*\b[^<>]*>")
_PAIR = re.compile(r"""[a-z][\w-]*=(?:"[^"]*"|'[^']*')""")
_VALUE = re.compile(r"""['"]([^'"\s]{4,200})['"]""")
_PUNCTUATION = "'\",{}[]():"


def _carriers(task: Task) -> list[Tag]:
    """Elements with an id (not scripts) that carry one of the task's evidence tokens."""
    if task.limitation is None:
        return []
    tokens = task.limitation.evidence_tokens
    soup = locate.parse(task.html)
    found: list[Tag] = []
    for tag in soup.find_all(id=True):
        values = [" ".join(v) if isinstance(v, list) else str(v) for v in tag.attrs.values()]
        if tag.name != "script" and any(t in v for v in values for t in tokens):
            found.append(tag)
    return found


def _outline(task: Task, blocker: Tag, parser: str) -> str | None:
    """The anchored outline program that lists ``blocker``, or None."""
    root = blocker.find_parents()[-1]
    anchor = locate.heading_anchor(root, locate.quoted_literals(task.query))  # type: ignore[arg-type]
    if anchor is None or (box := locate.container(anchor[1], [blocker])) is None:
        return None
    listed = box.find_all(lambda t: t.has_attr("id") or t.has_attr("src"))[:_OUTLINE_LIMIT]
    if not any(tag is blocker for tag in listed):
        return None
    literal, heading = anchor
    if heading.string is not None and heading.string == literal:
        find = f"soup.find({heading.name!r}, string={literal!r})"
    else:
        find = f"soup.find({heading.name!r}, string=lambda s: s and s.strip() == {literal!r})"
    head = [soup_line(parser), f"title = {find}", f"box = title.find_parent({box.name!r})"]
    return "\n".join([*head, _OUTLINE.format(limit=_OUTLINE_LIMIT)])


def printed_forms(line: str) -> list[list[str]]:
    """Evidence candidates copied from one printed line, by form: opening tags,
    ``name="value"`` pairs, quoted values, bare words; each exactly as printed."""
    words = [word.strip(_PUNCTUATION) for word in line.split()]
    groups = [
        _OPENING_TAG.findall(line),
        _PAIR.findall(line),
        _VALUE.findall(line),
        [word for word in words if len(word) >= 4 and not set(word) & set("=<>")],
    ]
    return [[form for form in group if len(form) <= MAX_EVIDENCE] for group in groups]


def _blocker_lines(stdout: str, blocker: Tag) -> list[str]:
    """The printed lines that show the blocker (its id in them)."""
    ident = str(blocker["id"])
    return [line for line in stdout.splitlines() if ident in line]


def cited_evidence(task: Task, stdout: str, blocker: Tag, rng: Random) -> str | None:
    """A valid evidence string copied verbatim from the lines of ``stdout`` showing the
    blocker (drawn among the valid forms), or None."""
    lines = _blocker_lines(stdout, blocker)
    groups: list[list[str]] = [[], [], [], []]
    for line in lines:
        for group, forms in zip(groups, printed_forms(line), strict=True):
            group.extend(form for form in forms if form not in group)
    valid = [[f for f in group if evidence_problem(task, f) is None] for group in groups]
    valid = [group for group in valid if group]
    return rng.choice(rng.choice(valid)) if valid else None


def write_abstain(task: Task, rng: Random, parser: str) -> Plan | None:
    """An abstention plan for a limitation task, or None where no anchor reaches a blocker."""
    if task.solvable or task.limitation is None:
        return None
    carriers = _carriers(task)
    rng.shuffle(carriers)
    for blocker in carriers:
        outline = _outline(task, blocker, parser)
        listed = host_run(task, outline) if outline is not None else None
        if outline is None or not listed:
            continue
        steps = [Step("run_python", outline)]
        shown = listed
        if rng.random() < LOOK_SHARE:
            look = f"{soup_line(parser)}\n" + rng.choice(_LOOKS).format(id=str(blocker["id"]))
            printed = host_run(task, look)
            if printed:
                steps.append(Step("run_python", look))
                shown = printed
        evidence = cited_evidence(task, shown, blocker, rng)
        if evidence is None:
            continue
        limit = {"reason": task.limitation.reasons[0].value, "evidence": evidence}
        tags = ("inspect", "look") if len(steps) > 1 else ("inspect",)
        return Plan("abstain", tuple(steps), "limit", limit=limit, tags=tags)
    return None
