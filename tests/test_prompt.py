"""Nothing in the prompt depends on whether a task is solvable."""

from __future__ import annotations

from collections import defaultdict

from bs4_env.episode.prompt import SYSTEM_PROMPT, initial_messages, user_prompt
from bs4_env.tasks.registry import Registry, build_task

SEEDS = 60


def test_instructions_identical_and_request_only_varies(registry: Registry) -> None:
    templates: dict[bool, set[str]] = defaultdict(set)
    schemas: dict[bool, set[str]] = defaultdict(set)
    for spec in registry:
        for seed in range(SEEDS):
            task = build_task(spec.id, seed, "train", registry)
            messages = initial_messages(task)
            assert messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
            assert messages[1]["content"] == user_prompt(task)
            stripped = (
                messages[1]["content"]
                .replace(task.query, "")
                .replace(task.answer_schema, "")
                .replace(task.start_url, "")
            )
            assert stripped == "Page: \n\nRequest: \n\nAnswer shape: "
            templates[task.solvable].add(task.query_template)
            schemas[task.solvable].add(task.answer_schema)
    assert templates[False] <= templates[True], "a limitation query template has no solvable twin"
    assert schemas[False] <= schemas[True], "a limitation answer schema has no solvable twin"


def test_limitation_reasons_listed_for_every_task() -> None:
    for reason in ("js_rendered", "canvas_text", "image_text", "pdf_embed"):
        assert reason in SYSTEM_PROMPT
