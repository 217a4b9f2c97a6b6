"""Recovery and budget episodes: a failed program, a look at the page, then the fix or an answer.

- ``recovery``: the working program with one realistic mistake (``mistakes``) runs first and
  fails for real (``None`` from ``find``, a wrong key, an empty selection); a generic look
  (``looks``) prints what is there; the working program runs; the answer is read off it.
- ``budget``: the episode runs under a tool-call budget of N. The first call prints the text
  around a name from the request, which already shows the answer's values; then a failed try,
  its look, (for N = 4) another failed try; the next call (the working program) is refused
  with the engine's budget message, and the final reply is the best ``ok`` answer from what
  was printed. The answer's form is the working program's, computed here; the grader decides.

Both start from a working plan whose last step alone prints the answer (single-page tasks).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from random import Random

from bs4_env.sft.looks import MAX_LOOK_CHARS, block_prints, look_after, text_near
from bs4_env.sft.mistakes import Mistake, mistakes
from bs4_env.sft.plan import Plan, Step, final_reply, host_outcome, host_run
from bs4_env.tasks.model import Task

BUDGET_CALLS = (3, 4)
NONE_FIRST = 0.5
_LOOK_NOTES = {
    "none": "find() returned None: nothing on the page matches that. Printing what is there.",
    "key": "KeyError: that key is not there. Printing what it has.",
    "no_match": "The selection is empty. Printing what is there.",
    "empty": "Nothing was found. Printing what is there.",
}


def fix_note(mistake: Mistake) -> str:
    if mistake.kind == "no_none_check":
        return f"Not every element has {mistake.right!r}; using .get()."
    return f"The output shows {mistake.right!r}, not {mistake.wrong!r}; using that."


def _working(task: Task, plan: Plan) -> Step | None:
    """The plan's last step, where it alone is a program that prints the plan's answer."""
    if task.is_multipage or plan.answer_from == "limit" or plan.budget_calls is not None:
        return None
    step = plan.steps[-1]
    if step.tool != "run_python" or host_run(task, step.argument) is None:
        return None
    return step


def _repairs(task: Task, working: Step, rng: Random) -> list[tuple[Mistake, str]]:
    """(mistake, look) pairs for ``working``, in a drawn order."""
    found = mistakes(task, working.argument)
    rng.shuffle(found)
    if rng.random() < NONE_FIRST:
        # The failure small models meet most on real pages: a find() that returned None.
        found.sort(key=lambda mistake: mistake.failure != "none")
    pairs = []
    for mistake in found:
        look = look_after(task, working.argument, mistake)
        if look is not None:
            pairs.append((mistake, look))
    return pairs


def with_recovery(task: Task, plan: Plan, rng: Random) -> Plan | None:
    """The recovery episode of ``plan`` (module docstring), or None where none applies."""
    working = _working(task, plan)
    if working is None:
        return None
    for mistake, look in _repairs(task, working, rng)[:1]:
        steps = (
            Step("run_python", mistake.code, trained=False),
            Step("run_python", look, _LOOK_NOTES[mistake.failure]),
            Step("run_python", working.argument, fix_note(mistake)),
        )
        if len(steps) > task.free_tool_calls:
            return None
        tags = (*_kept_tags(plan), "recovery", f"mistake:{mistake.kind}", f"fail:{mistake.failure}")
        return Plan(plan.kind, steps, plan.answer_from, tags=tags)
    return None


def _kept_tags(plan: Plan) -> tuple[str, ...]:
    return tuple(tag for tag in plan.tags if tag not in ("inspect", "look"))


def _leaves(value: object) -> list[object]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def shows_values(stdout: str, truth: object) -> bool:
    """Whether every value of the answer appears in ``stdout`` (whitespace collapsed;
    numbers as whole tokens)."""
    flat = " ".join(stdout.split())
    leaves = _leaves(truth)
    if not leaves:
        return False
    for leaf in leaves:
        if isinstance(leaf, bool) or leaf is None:
            return False
        text = " ".join(str(leaf).split())
        if isinstance(leaf, int | float):
            if re.search(rf"(?<![\w.,]){re.escape(text)}(?![\w]|[.,]\d)", flat) is None:
                return False
        elif len(text) < 2 or text not in flat:
            return False
    return True


def _value_look(task: Task, parser: str, working: str) -> str | None:
    """A first program that prints the answer's values among other text: the text around a
    name from the request, or the text or markup of a block the working program finds."""
    for code in [*text_near(task, parser), *block_prints(working)]:
        stdout, error = host_outcome(task, code)
        if error is None and len(stdout) <= MAX_LOOK_CHARS and shows_values(stdout, task.truth):
            return code
    return None


def with_budget(
    task: Task, plan: Plan, rng: Random, parser: str, budget_calls: Sequence[int] = BUDGET_CALLS
) -> Plan | None:
    """The budget episode of ``plan`` (module docstring), or None where none applies."""
    working = _working(task, plan)
    if working is None or not budget_calls:
        return None
    look = _value_look(task, parser, working.argument)
    if look is None:
        return None
    stdout = host_run(task, working.argument)
    try:
        final = final_reply(stdout or "", plan)
        json.loads(final)
    except ValueError:
        return None
    repairs = _repairs(task, working, rng)
    if not repairs:
        return None
    first, first_look = repairs[0]
    calls = [
        Step("run_python", look),
        Step("run_python", first.code, trained=False),
        Step("run_python", first_look, _LOOK_NOTES[first.failure]),
    ]
    # A second try fixes the first mistake and makes another.
    calls += [
        Step("run_python", mistake.code, fix_note(first), trained=False)
        for mistake, _ in repairs[1:2]
    ]
    fitting = [n for n in budget_calls if n <= len(calls)]
    if not fitting:
        return None
    budget = rng.choice(fitting)
    last = repairs[1][0] if budget == 4 else first
    refused = Step("run_python", working.argument, fix_note(last))
    steps = (*calls[:budget], refused)
    tags = (*_kept_tags(plan), "budget", f"budget:{budget}", f"mistake:{first.kind}")
    return Plan(plan.kind, steps, "given", tags=tags, budget_calls=budget, final=final)
