"""Fuzz the grader with adversarial final messages: it never raises and never rewards junk."""

from __future__ import annotations

import pytest

from bs4_env.grading.adversarial import adversarial_replies
from bs4_env.grading.rubric import ToolUsage, grade
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import Registry, build_task

RAN = ToolUsage(tool_calls=1, soup_runs=1)
SOLVABLE = ("text_by_id", "table_dicts_by_header", "login_form_secret", "all_links")


@pytest.fixture(scope="module")
def tasks(registry: Registry) -> list[Task]:
    limitation = [spec.id for spec in registry if not spec.solvable]
    return [build_task(archetype, 3, "eval", registry) for archetype in (*SOLVABLE, *limitation)]


def test_corpus_is_large_and_has_positive_controls(tasks: list[Task]) -> None:
    for task in tasks:
        replies = adversarial_replies(task)
        assert len(replies) >= 60, task.archetype_id
        assert len({reply.name for reply in replies}) == len(replies)
        assert any(reply.right for reply in replies), task.archetype_id


def test_nothing_raises_and_only_right_answers_score(tasks: list[Task]) -> None:
    for task in tasks:
        for reply in adversarial_replies(task):
            score = grade(task, reply.text, RAN)
            where = (task.archetype_id, reply.name, score.explanation)
            assert score.explanation, where
            if reply.right:
                assert score.reward > 0, where
            else:
                assert score.reward <= 0, where
