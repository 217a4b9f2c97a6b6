"""The per-call time limit on a labelled page grows with the page's size (bounded), the same on
every path that runs an episode: ``bs4-env eval``, the verifiers v1 taskset and classic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bs4_env.episode.engine import Budgets, Episode
from bs4_env.episode.page_timeout import MAX_EXTRA_S, page_timeout_s
from bs4_env.evaluation.runner import generated_task
from bs4_env.integrations.verifiers_classic.dataset import task_of as classic_task_of
from bs4_env.integrations.verifiers_classic.options import ClassicOptions
from bs4_env.integrations.verifiers_v1.config import EngineSettings
from bs4_env.integrations.verifiers_v1.state import BS4State, episode_of, start_state
from bs4_env.pages.sets import page_task
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.splits import Row, seed_for

PAGE_BYTES = 1_500_000  # a large real page is about 1.4 MB
CAP = 2_500_000


def _big_page() -> str:
    filler = "<p>" + "x" * 96 + "</p>\n"  # 104 bytes a line
    body = filler * ((PAGE_BYTES - 100) // len(filler))
    html = f"<html><body><h1>Widget</h1>{body}</body></html>"
    return html + " " * (PAGE_BYTES - len(html))


@pytest.fixture
def rows_file(tmp_path: Path) -> Path:
    page = _big_page()
    rows = [
        {"id": "big", "family": "product_name", "html": page, "request": "The product's name.",
         "answer": "Widget"},
        {"id": "big/own", "family": "product_name", "html": page, "request": "The name.",
         "answer": "Widget", "timeout_s": 3},
    ]  # fmt: skip
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return path


def test_the_rule_is_linear_in_size_and_bounded() -> None:
    assert page_timeout_s(10.0, 0) == 10.0
    assert page_timeout_s(10.0, 1_400_000) == 15.6
    assert page_timeout_s(10.0, 10**9) == 10.0 + MAX_EXTRA_S
    with pytest.raises(ValueError, match="page size"):
        page_timeout_s(10.0, -1)


async def test_a_large_labelled_page_gets_more_time_on_every_path(
    rows_file: Path, executor: Executor
) -> None:
    pages = str(rows_file)
    task = page_task(pages, 0, CAP)
    assert len(task.pages[task.start_url].encode()) == PAGE_BYTES
    # bs4-env eval (run_rollout) and any caller of the engine
    assert Episode(task, executor, Budgets()).timeout_s == 16.0
    assert Episode(task, executor, Budgets(timeout_s=5.0)).timeout_s == 11.0
    # verifiers v1 taskset: the episode rebuilt from the synced state, with its budgets
    state = BS4State()
    start_state(state, task, pages, CAP)
    assert episode_of(state, executor, EngineSettings().budgets()).timeout_s == 16.0
    # classic: the task a row's info names, with the environment's budgets
    info = {"archetype": task.archetype_id, "seed": 0, "split": task.split, "pages": pages,
            "max_page_bytes": CAP}  # fmt: skip
    assert Episode(classic_task_of(info), executor, ClassicOptions().budgets()).timeout_s == 16.0
    # a row's own timeout_s is kept as given; a generated task keeps the flat budget
    assert Episode(page_task(pages, 1, CAP), executor, Budgets()).timeout_s == 3.0
    generated = generated_task(Row("json_ld", seed_for("eval", 0), "eval"))
    assert Episode(generated, executor, Budgets()).timeout_s == 10.0


async def test_code_that_outlasts_the_flat_budget_finishes_on_a_large_page(
    rows_file: Path, executor: Executor
) -> None:
    episode = Episode(page_task(str(rows_file), 0, CAP), executor, Budgets(timeout_s=1.0))
    assert episode.timeout_s == 7.0
    reply = await episode.run_python("import time\ntime.sleep(2)\nprint('finished')")
    assert "finished" in reply and episode.state.timeouts == 0
