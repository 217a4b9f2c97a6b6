"""Which plans to try for one task, with its style choices, and in which order.

Order: the targeted writers (one per page family, then the two generic ones) or the abstention
writer, each with a drawn parser and then the default parser, then the reference program bound
to this request's literals. Variants drawn per episode: an inspection call first (print the
request's block); on the solvable twin of a limitation archetype, a look at the element that
blocks its twin first (``twins``); and a first try that fails for a common reason and is fixed
after the real error (``fixes``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any

from bs4_env.sft import locate
from bs4_env.sft.abstain import write_abstain
from bs4_env.sft.bind import BindError, bind_program
from bs4_env.sft.fixes import with_fix
from bs4_env.sft.plan import PARSERS, Plan, Step, soup_line
from bs4_env.sft.targeted import truth_strings, write_targeted
from bs4_env.sft.targeted_aggregates import write_aggregate
from bs4_env.sft.targeted_forms import write_form
from bs4_env.sft.targeted_pairs import write_pairs
from bs4_env.sft.targeted_records import write_record
from bs4_env.sft.targeted_scripts import write_script_data
from bs4_env.sft.targeted_siblings import write_siblings
from bs4_env.sft.targeted_tables import write_table
from bs4_env.sft.targeted_visible import write_visible
from bs4_env.sft.twins import with_twin_look
from bs4_env.tasks.model import Category, Task
from bs4_env.tasks.registry import Registry

Writer = Callable[[Task, Random, str], Plan | None]
FIX_SHARE = 0.3
INSPECT_SHARE = 0.5
_BLOCK_OUTLINE = (
    "for el in box.find_all(True)[:12]:\n"
    "    print(el.name, el.get('id'), el.get('class'), el.get_text(' ', strip=True)[:50])"
)


# Family writers first: where one fits, it computes the answer from the page's structure
# (a titled table, a record's fields, a form, embedded JSON, an aggregate over the items, the
# siblings after a heading, two label lists paired) rather than pointing at the element that
# holds it. The two generic writers come last: the one that points at the answer's element,
# then the one that also skips what is not shown.
TARGETED_WRITERS: tuple[Writer, ...] = (
    write_table,
    write_record,
    write_form,
    write_script_data,
    write_aggregate,
    write_siblings,
    write_pairs,
    write_targeted,
    write_visible,
)
# Writers that select the element holding the known answer: no use where the answer is
# computed over many items (an aggregation), a shortcut no solver has.
POINTING_WRITERS = (write_targeted, write_visible)


def _draw_parser(rng: Random) -> str:
    return rng.choices(PARSERS, weights=(2, 1, 1))[0]


def _bound_plan(task: Task, registry: Registry, rng: Random) -> Plan | None:
    try:
        code = bind_program(registry.reference_solution(task.archetype_id), task.query)
    except BindError:
        return None
    steps = [Step("run_python", code)]
    soup = locate.parse(task.html)
    anchor = locate.heading_anchor(soup, locate.quoted_literals(task.query))
    if anchor is not None and not task.is_multipage and rng.random() < INSPECT_SHARE:
        literal, heading = anchor
        find = f"soup.find({heading.name!r}, string=lambda s: s and s.strip() == {literal!r})"
        outline = "\n".join(
            [
                soup_line("html.parser"),
                f"title = {find}",
                "box = title.find_parent(['section', 'article', 'div'])",
                _BLOCK_OUTLINE,
            ]
        )
        steps.insert(0, Step("run_python", outline))
    tags = ("inspect",) if len(steps) > 1 else ()
    return Plan("bound_reference", tuple(steps), "final_json", tags=tags)


def _variant(task: Task, plan: Plan, rng: Random, parser: str) -> Plan:
    """The plan with its drawn variants: the twin's look first, sometimes an error fixed."""
    plan = with_twin_look(task, plan, Random(rng.random()), parser)
    fix_draw = Random(rng.random())
    return with_fix(task, plan, fix_draw) if rng.random() < FIX_SHARE else plan


def base_plans(task: Task, registry: Registry, rng: Random) -> tuple[list[Plan], str]:
    """The writers' plans (and the bound reference) before variants, and the drawn parser."""
    writers = TARGETED_WRITERS if task.solvable else (write_abstain,)
    if registry.get(task.archetype_id).category is Category.AGGREGATION:
        # The answer of an aggregation is computed over many items: the generic writer would
        # select the one element that holds the known answer, a shortcut no solver has.
        writers = tuple(writer for writer in writers if writer not in POINTING_WRITERS)
    parser = _draw_parser(rng)
    plans: list[Plan] = []
    for writer in writers:
        for choice in dict.fromkeys((parser, "html.parser")):
            plan = writer(task, rng, choice)
            if plan is not None:
                plans.append(dataclasses.replace(plan, tags=(*plan.tags, choice)))
    bound = _bound_plan(task, registry, rng)
    if bound is not None:
        plans.append(bound)
    # A program with the answer written in teaches nothing: never offer one.
    return [plan for plan in plans if not writes_the_answer(plan, task)], parser


def candidate_plans(
    task: Task, registry: Registry, rng: Random, drawn: BaseDraw | None = None
) -> list[Plan]:
    """Plans to replay in order until one scores the best reward.

    ``drawn``: ``base_draw(task, registry, rng)`` where the caller made it already (the mix
    draws each row's base plans with the episode's own seed); ``rng`` then goes on from it.
    """
    if drawn is None:
        drawn = base_draw(task, registry, rng)
    else:
        rng.setstate(drawn.rng_state)
    variant_draw = Random(rng.random())
    return [
        _variant(task, plan, Random(variant_draw.random()), drawn.parser) for plan in drawn.plans
    ]


@dataclass(frozen=True)
class BaseDraw:
    """``base_plans``' answer, and the state its ``rng`` was left in."""

    plans: tuple[Plan, ...]
    parser: str
    rng_state: tuple[Any, ...]


def base_draw(task: Task, registry: Registry, rng: Random) -> BaseDraw:
    """``base_plans(task, registry, rng)``, kept with the state of ``rng`` after it."""
    plans, parser = base_plans(task, registry, rng)
    return BaseDraw(tuple(plans), parser, rng.getstate())


def writes_the_answer(plan: Plan, task: Task) -> bool:
    """Whether some step's code contains the answer (or a long enough part of it)."""
    code = "\n".join(step.argument for step in plan.steps)
    return any(value in code for value in truth_strings(task.truth))
