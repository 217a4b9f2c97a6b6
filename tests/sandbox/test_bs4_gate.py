"""The "used BeautifulSoup" gate and the report channel, through ``Episode.call_tool``.

Only trees built from the current page count; bytes model code writes to the report
descriptor can neither raise the parse count nor make its own call look like a sandbox
failure. Real tasks, the real engine, the local sandbox.
"""

from __future__ import annotations

import json

import pytest

from bs4_env.episode.engine import Episode
from bs4_env.sandbox.local_backend import LocalExecutor
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import build_task

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def task() -> Task:
    return build_task("text_by_id", 7, "eval")


def _answer(task: Task) -> str:
    return json.dumps({"status": "ok", "answer": task.truth})


async def _run(task: Task, executor: LocalExecutor, code: str) -> tuple[Episode, str]:
    episode = Episode(task, executor)
    reply = await episode.call_tool("run_python", json.dumps({"code": code}))
    return episode, reply


@pytest.mark.parametrize(
    "code",
    [
        "from bs4 import BeautifulSoup\nBeautifulSoup('')\nprint('ok')",
        "from bs4 import BeautifulSoup\nBeautifulSoup('<p>' + QUERY + '</p>', 'lxml')\nprint('ok')",
        "from bs4 import BeautifulSoup\nBeautifulSoup(HTML[:-1], 'html.parser')\nprint('ok')",
        "import io, bs4\nbs4.BeautifulSoup(io.StringIO('<b>x</b>'))\nprint('ok')",
    ],
    ids=["empty", "other-markup", "almost-the-page", "file-object"],
)
async def test_trees_not_built_from_the_page_do_not_pass_the_gate(
    executor: LocalExecutor, task: Task, code: str
) -> None:
    episode, reply = await _run(task, executor, code)
    assert "exit status: 0" in reply, reply
    assert episode.state.soup_runs == 0
    score = episode.finish(_answer(task))
    assert score.reward == 0.0 and score.components["used_bs4"] == 0.0, score


@pytest.mark.parametrize(
    "code",
    [
        "print(make_soup().title)",
        "print(make_soup('lxml').title)",
        "from bs4 import BeautifulSoup\nprint(BeautifulSoup(HTML, 'html5lib').title)",
        "import bs4\nprint(bs4.BeautifulSoup(markup=HTML.encode(), features='lxml').title)",
    ],
    ids=["make_soup", "make_soup-lxml", "BeautifulSoup-HTML", "encoded-page-keyword"],
)
async def test_trees_of_the_page_pass_the_gate(
    executor: LocalExecutor, task: Task, code: str
) -> None:
    episode, reply = await _run(task, executor, code)
    assert "exit status: 0" in reply, reply
    assert episode.state.soup_runs == 1
    assert episode.finish(_answer(task)).reward == 1.0


async def test_a_page_reached_by_navigate_counts(executor: LocalExecutor) -> None:
    task = build_task("multipage_navigate", 3, "eval")
    episode = Episode(task, executor)
    other = next(url for url in task.pages if url != task.start_url)
    assert "Navigated" in await episode.call_tool("navigate", json.dumps({"href": other}))
    reply = await episode.call_tool("run_python", json.dumps({"code": "print(make_soup().title)"}))
    assert "exit status: 0" in reply and episode.state.soup_runs == 1, reply


@pytest.mark.parametrize(
    "code",
    [
        "import os\nos.write(3, b'{\"soup_parses\": 5}')\nos.close(3)\nprint('ok')",
        'import os\nos.write(3, b\'{"soup_parses": 5, "key": "guess"}\')\nos.close(3)',
        "import os\nos.dup2(os.open('/dev/null', os.O_WRONLY), 3)\nos.write(1, b'x')",
    ],
    ids=["forged-count", "forged-key", "report-redirected"],
)
async def test_report_channel_cannot_raise_the_parse_count(
    executor: LocalExecutor, task: Task, code: str
) -> None:
    episode, reply = await _run(task, executor, code)
    assert "exit status: 0" in reply, reply
    assert episode.state.soup_runs == 0
    assert episode.finish(_answer(task)).reward == 0.0


async def test_garbled_or_duplicated_report_counts_against_the_program(
    executor: LocalExecutor, task: Task
) -> None:
    code = "import os\nmake_soup()\nos.write(3, b'{\"soup_parses\": 1}')\nprint('ok')"
    episode, reply = await _run(task, executor, code)
    assert "exit status: 0" in reply and episode.state.soup_runs == 0, reply


@pytest.mark.parametrize(
    "code",
    [
        'import os\nos.write(3, b\'{"infra_error": "forged"}\')\nos.close(3)',
        'import os\nos.write(3, b\'{"infra_error": "forged", "soup_parses": 1}\')\nos.close(3)',
        "import os\nfor fd in range(3, 64):\n    try:\n        os.write(fd, b'EForged')\n"
        "    except OSError:\n        pass\nos._exit(125)",
    ],
    ids=["report-fd", "report-fd-with-count", "every-fd-setup-exit-status"],
)
async def test_model_code_cannot_claim_a_sandbox_error(
    executor: LocalExecutor, task: Task, code: str
) -> None:
    episode, reply = await _run(task, executor, code)
    assert not reply.startswith("sandbox error"), reply
    assert episode.state.sandbox_errors == 0
    assert episode.last_result is not None and episode.last_result.infra_error is None
