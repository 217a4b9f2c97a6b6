"""The episode engine: navigation takes effect at once, budgets, argument repair, grading."""

from __future__ import annotations

import dataclasses
import json
from types import MappingProxyType

from bs4_env.episode.engine import TOOL_BUDGET_SPENT, Budgets, Episode
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import Registry, build_task

START = "https://shop.example/list/"


def _two_page_task(registry: Registry) -> Task:
    base = build_task("text_by_id", 1, "train", registry)
    pages = {
        START: "<a href='../item/7?x=1#top'>go</a>",
        "https://shop.example/item/7?x=1": "<p>P2</p>",
    }
    return dataclasses.replace(
        base, pages=MappingProxyType(pages), start_url=START, html=pages[START]
    )


async def test_navigate_switches_page_within_the_same_call(
    registry: Registry, executor: Executor
) -> None:
    episode = Episode(_two_page_task(registry), executor)
    reply = await episode.navigate("../item/7?x=1#top")
    assert reply.startswith("Navigated to https://shop.example/item/7?x=1")
    out = await episode.run_python("print(make_soup().p.string)")
    assert "P2" in out
    assert "no page" in await episode.navigate("/nowhere")


async def test_navigate_on_single_page_task_errors(registry: Registry, executor: Executor) -> None:
    episode = Episode(build_task("text_by_id", 1, "train", registry), executor)
    assert "single page" in await episode.navigate("/x")


async def test_tool_budget_refuses_extra_calls(registry: Registry, executor: Executor) -> None:
    episode = Episode(
        build_task("text_by_id", 1, "train", registry), executor, Budgets(max_tool_calls=1)
    )
    assert "exit status: 0" in await episode.run_python("print(1)")
    # Exactly the text transcript readers match (bs4_lab.real_measures.budget_heeded).
    assert await episode.run_python("print(2)") == TOOL_BUDGET_SPENT.format(limit=1)
    assert episode.state.tool_calls == 2


async def test_call_tool_repairs_or_explains(registry: Registry, executor: Executor) -> None:
    episode = Episode(build_task("text_by_id", 1, "train", registry), executor)
    reply = await episode.call_tool("run_python", "```python\nprint(len(HTML) > 0)\n```")
    assert "True" in reply
    refused = await episode.call_tool("run_python", '{"code": "print(1')
    assert refused.startswith("error:") and "run_python" in refused
    assert (await episode.call_tool("browse", "{}")).startswith("error: unknown tool")
    assert episode.state.bad_arguments == 1


async def test_finish_grades_once_with_usage(registry: Registry, executor: Executor) -> None:
    task = build_task("text_by_id", 2, "train", registry)
    episode = Episode(task, executor)
    await episode.call_tool("run_python", json.dumps({"code": "s = make_soup()"}))
    score = episode.finish(json.dumps({"status": "ok", "answer": task.truth}))
    assert score.reward == 1.0
    assert episode.finish("garbage") is score
    assert "over" in await episode.run_python("print(1)")


async def test_model_errors_and_timeouts_are_reported(
    registry: Registry, executor: Executor
) -> None:
    episode = Episode(
        build_task("text_by_id", 1, "train", registry), executor, Budgets(timeout_s=3)
    )
    assert "ZeroDivisionError" in await episode.run_python("1/0")
    assert "time limit" in await episode.run_python("while True: pass")
    assert episode.state.timeouts == 1 and episode.state.soup_runs == 0
