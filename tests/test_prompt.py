"""Nothing in the prompt depends on whether a task is solvable."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bs4_env.episode.prompt import FIRST_STEP, SYSTEM_PROMPT, initial_messages, user_prompt
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import Registry, build_task

SEEDS = 60


@pytest.fixture(scope="module")
def tasks(registry: Registry) -> list[Task]:
    """``SEEDS`` train tasks of every archetype, generated once for this module."""
    return [
        build_task(spec.id, seed, "train", registry) for spec in registry for seed in range(SEEDS)
    ]


def test_instructions_identical_and_request_only_varies(tasks: list[Task]) -> None:
    templates: dict[bool, set[str]] = defaultdict(set)
    schemas: dict[bool, set[str]] = defaultdict(set)
    for task in tasks:
        messages = initial_messages(task)
        assert messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
        assert messages[1]["content"] == user_prompt(task)
        stripped = (
            messages[1]["content"]
            .replace(task.query, "")
            .replace(task.answer_schema, "")
            .replace(task.start_url, "")
        )
        assert stripped == f"Page: \n\nRequest: \n\nAnswer shape: \n\n{FIRST_STEP}"
        templates[task.solvable].add(task.query_template)
        schemas[task.solvable].add(task.answer_schema)
    assert templates[False] <= templates[True], "a limitation query template has no solvable twin"
    assert schemas[False] <= schemas[True], "a limitation answer schema has no solvable twin"


def test_limitation_reasons_listed_for_every_task() -> None:
    for reason in ("js_rendered", "canvas_text", "image_text", "pdf_embed"):
        assert reason in SYSTEM_PROMPT


def test_page_size_does_not_reveal_limitation_pages(tasks: list[Task]) -> None:
    """A limitation page is about as large as the solvable pages asked the same way."""
    sizes: dict[tuple[str, bool], list[int]] = defaultdict(list)
    for task in tasks:
        sizes[(task.query_template, task.solvable)].append(len(task.html))
    for (template, solvable), limited in sizes.items():
        if solvable:
            continue
        twin = sizes[(template, True)]
        ratio = (sum(limited) / len(limited)) / (sum(twin) / len(twin))
        assert 0.5 <= ratio <= 2.0, f"{template}: limitation pages {ratio:.2f}x their twins' size"
