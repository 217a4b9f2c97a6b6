"""Error-fix variants of a plan: a first program that fails for a common reason, then the fix.

Each kind rewrites one step of a working plan into the program a person often writes first,
runs it here to prove it really fails that way, and puts it before the working step (with a
short note saying what the output showed). The replay runs the broken program in the sandbox,
so the tool reply the episode trains on is the real traceback (or the real empty result).

- ``import``: ``import json`` left out: ``NameError``.
- ``attr_key``: ``el["id"]`` on elements that lack the attribute: ``KeyError``; fixed with
  ``el.get("id")``.
- ``wrong_script``: ``json.loads`` on the first script (or a guessed id): a decode error or
  ``None``; the scripts are listed, then the right one is read by its id.
- ``wrong_heading``: the heading looked up at a guessed level (``h2`` for an ``h3``):
  ``None``, then ``AttributeError``; the text's element is printed, then the real tag is used.
- ``wrong_tag``: the right class with a guessed tag name (``div.price`` for ``span.price``):
  ``None`` or ``[]``; the class's elements are listed, then the real selector is used.

Kinds other than ``import`` are tried first (in a drawn order), so the fixes spread over them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from random import Random

from bs4_env.sft.plan import Plan, Step, host_outcome, soup_line
from bs4_env.tasks.model import Task

FIX_KINDS = ("import", "attr_key", "wrong_script", "wrong_heading", "wrong_tag")
_LITERAL = r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
_GET = re.compile(r"""\b(el|tag|item|s)\.get\((['"](?:id|class|src|href|type)['"])\)""")
_SCRIPT_BY_ID = re.compile(r"""soup\.find\('script', id=('[^']+'|"[^"]+")\)""")
_TAG_CLASS = re.compile(
    r"""\b(soup|box)\.(select_one|select)\('([a-z][a-z0-9]*)\.([A-Za-z_][\w-]*)([^']*)'\)"""
)
_HEADING = re.compile(r"soup\.find\('(h[1-4])', string=" + _LITERAL + r"\)")
_GUESS_TAGS = ("div", "span", "p", "li")
_SCRIPTS = (
    "for s in soup.find_all('script')[:12]:\n"
    "    print(s.get('id'), s.get('type'), ' '.join((s.string or '').split())[:60])"
)
_NOTES = {
    "import": "json is not imported; adding the import.",
    "attr_key": "Not every element has that attribute (KeyError); using .get() instead.",
    "wrong_tag": "The class is right but the tag name is not; using the tag the listing shows.",
}

Broken = tuple[int, str, tuple[Step, ...], str]  # step index, broken code, steps between, note


def _fails(task: Task, code: str, errors: tuple[type[Exception], ...], empty: bool = False) -> bool:
    """Whether ``code`` raises one of ``errors`` here (or, with ``empty``, prints only
    ``None`` or ``[]``)."""
    stdout, error = host_outcome(task, code)
    if error is not None:
        return isinstance(error, errors)
    return empty and stdout.strip() in ("None", "[]")


def _missing_import(task: Task, plan: Plan, rng: Random) -> Broken | None:
    index = len(plan.steps) - 1
    lines = plan.steps[index].argument.splitlines()
    if "import json" not in lines or "json." not in plan.steps[index].argument:
        return None
    broken = "\n".join(line for line in lines if line != "import json")
    return (index, broken, (), _NOTES["import"]) if _fails(task, broken, (NameError,)) else None


def _attr_key(task: Task, plan: Plan, rng: Random) -> Broken | None:
    for index, step in enumerate(plan.steps):
        broken = _GET.sub(r"\1[\2]", step.argument)
        if broken != step.argument and _fails(task, broken, (KeyError,)):
            return index, broken, (), _NOTES["attr_key"]
    return None


def _wrong_script(task: Task, plan: Plan, rng: Random) -> Broken | None:
    index = len(plan.steps) - 1
    code = plan.steps[index].argument
    match = _SCRIPT_BY_ID.search(code)
    if match is None:
        return None
    guesses = ["soup.find('script')", "soup.find('script', id='__NEXT_DATA__')"]
    rng.shuffle(guesses)
    listing = f"{soup_line('html.parser')}\n{_SCRIPTS}"
    listed, error = host_outcome(task, listing)
    if error is not None or match.group(1).strip("'\"") not in listed:
        return None
    errors = (ValueError, TypeError, AttributeError)
    for guess in guesses:
        broken = code.replace(match.group(0), guess, 1)
        if guess != match.group(0) and _fails(task, broken, errors):
            note = "That script does not hold the data; listing the page's scripts."
            found = f"The data is in the script with id {match.group(1)}; reading that one."
            return index, broken, (Step("run_python", listing, note),), found
    return None


def _wrong_tag(task: Task, plan: Plan, rng: Random) -> Broken | None:
    index = len(plan.steps) - 1
    code = plan.steps[index].argument
    match = _TAG_CLASS.search(code)
    if match is None:
        return None
    scope, method, name, cls, rest = match.groups()
    head = [line for line in code.splitlines() if line.startswith(("soup =", "title =", "box ="))]
    listing = "\n".join(
        [
            *head,
            f"for el in {scope}.select('.{cls}')[:12]:",
            "    print(el.name, el.get('class'), el.get_text(' ', strip=True)[:60])",
        ]
    )
    listed, error = host_outcome(task, listing)
    if error is not None or not listed.startswith(f"{name} "):
        return None
    for guess in [tag for tag in _GUESS_TAGS if tag != name]:
        broken = code.replace(match.group(0), f"{scope}.{method}('{guess}.{cls}{rest}')", 1)
        if _fails(task, broken, (AttributeError, TypeError), empty=True):
            note = "Nothing matched that selector; listing the elements with that class."
            return index, broken, (Step("run_python", listing, note),), _NOTES["wrong_tag"]
    return None


def _wrong_heading(task: Task, plan: Plan, rng: Random) -> Broken | None:
    index = len(plan.steps) - 1
    code = plan.steps[index].argument
    match = _HEADING.search(code)
    if match is None:
        return None
    level, literal = match.groups()
    show = "\n".join(
        [
            soup_line("html.parser"),
            f"text = soup.find(string=lambda s: s and {literal} in s)",
            "print(text.parent.name, text.parent.attrs)",
        ]
    )
    shown, error = host_outcome(task, show)
    if error is not None or not shown.startswith(f"{level} "):
        return None
    for guess in [h for h in ("h2", "h3", "h1", "h4") if h != level][:2]:
        broken = code.replace(match.group(0), f"soup.find('{guess}', string={literal})", 1)
        if _fails(task, broken, (AttributeError, TypeError)):
            note = f"No {guess} has that text (None); printing the element that holds it."
            found = f"The heading is an {level}; using that tag."
            return index, broken, (Step("run_python", show, note),), found
    return None


BREAKERS: dict[str, Callable[[Task, Plan, Random], Broken | None]] = {
    "import": _missing_import,
    "attr_key": _attr_key,
    "wrong_script": _wrong_script,
    "wrong_heading": _wrong_heading,
    "wrong_tag": _wrong_tag,
}


def with_fix(task: Task, plan: Plan, rng: Random, kinds: Sequence[str] = FIX_KINDS) -> Plan:
    """``plan`` with one drawn error-fix variant (of ``kinds``, those that apply to it), or
    ``plan`` itself where none applies within the task's free tool calls."""
    order = [kind for kind in FIX_KINDS if kind != "import" and kind in kinds]
    rng.shuffle(order)
    for kind in [*order, *(["import"] if "import" in kinds else [])]:
        broken = BREAKERS[kind](task, plan, rng)
        if broken is None:
            continue
        index, code, between, note = broken
        fixed = dataclasses.replace(plan.steps[index], note=note)
        before, tags = plan.steps[:index], plan.tags
        if between and before and "twin_look" not in tags:
            # The fix's own listing is the inspection: the plan's earlier one goes.
            before, tags = (), tuple(tag for tag in tags if tag != "inspect")
        steps = (
            *before,
            Step("run_python", code, trained=False),
            *between,
            fixed,
            *plan.steps[index + 1 :],
        )
        if len(steps) > task.free_tool_calls:  # an extra call costs reward: not the best
            continue
        return dataclasses.replace(plan, steps=steps, tags=(*tags, "fix", f"fix:{kind}"))
    return plan
