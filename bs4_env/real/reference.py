"""The reference program of a task: an archetype's own, or for a labelled page the generic
program of its family (``reference_solution.py``; no site-specific code in it)."""

from __future__ import annotations

from pathlib import Path

from bs4_env.tasks.model import Category, Task
from bs4_env.tasks.registry import default_registry

PROGRAM = Path(__file__).with_name("reference_solution.py")
RECIPE_PROGRAM = Path(__file__).with_name("reference_recipe_solution.py")
RECIPE_FAMILIES = (
    "recipe_title",
    "recipe_author",
    "recipe_ingredients",
    "recipe_instructions",
    "recipe_yields",
    "recipe_total_time",
    "recipe_rating",
    "recipe_card",
)
FAMILIES_WITH_PROGRAM = (
    "product_price",
    "product_sku",
    "product_brand",
    "product_gtin",
    "article_title",
    "article_author",
    "article_date",
    *RECIPE_FAMILIES,
)


def family_program(family: str) -> str:
    """The generic program for a fact family; raises ``KeyError`` for a family it lacks."""
    if family not in FAMILIES_WITH_PROGRAM:
        raise KeyError(
            f"no reference program for family {family!r} (there are: "
            f"{', '.join(FAMILIES_WITH_PROGRAM)}); pass --model to evaluate a model"
        )
    program = RECIPE_PROGRAM if family in RECIPE_FAMILIES else PROGRAM
    return f"FAMILY = {family!r}\n" + program.read_text(encoding="utf-8")


def reference_program(task: Task) -> str:
    """The program the reference policy runs on ``task``."""
    if task.category is Category.PAGES:
        return family_program(task.archetype_id)
    return default_registry().reference_solution(task.archetype_id)
