"""Rows files: bad rows fail at load with their id and reason; pages over the cap are refused;
rows are served stratified by family; a row's task goes through the real engine and grader."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from bs4_env.episode.engine import Episode
from bs4_env.episode.prompt import initial_messages
from bs4_env.pages.pageset import NEUTRAL_URL, load_page_set
from bs4_env.pages.rows import PageRowError
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.model import Category

PAGE = (
    '<html><head><meta charset="windows-1252"><title>Oak desk</title></head><body>'
    '<h1>Oak desk</h1><p class="price">€ 1.299,00</p><a href="/p/chair?id=9">Chair</a>'
    '<form><input type="hidden" name="csrf" value="tok-9f8e7d6c5b"></form></body></html>'
)


def write_rows(folder: Path, rows: list[dict[str, Any] | str]) -> Path:
    path = folder / "rows.jsonl"
    lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def page_file(folder: Path, name: str = "desk.html", text: str = PAGE) -> dict[str, str]:
    raw = text.encode("utf-8")
    if name.endswith(".gz"):
        raw = gzip.compress(raw)
    (folder / name).write_bytes(raw)
    return {"html_path": name, "sha256": hashlib.sha256(raw).hexdigest()}


def desk_rows(folder: Path) -> list[dict[str, Any]]:
    page = page_file(folder)
    return [
        {"id": "desk/price", "family": "price", "request": "The desk's price, a number.",
         "answer": {"any_of": ["1299", "1199"]}, "secrets": ["tok-9f8e7d6c5b"],
         "normalization": {"kind": "decimal", "decimal_separator": ","}, **page},
        {"id": "desk/link", "family": "link", "request": "Where the chair link goes.",
         "answer": "https://shop.example.com/p/chair?id=9", "normalization": "url",
         "url": "https://shop.example.com/p/oak-desk", **page},
        {"id": "desk/gtin", "family": "gtin", "request": "The desk's GTIN.", "answer": None,
         **page},
        {"id": "desk/name", "family": "name", "request": "The product name.",
         "answer": "oak DESK", "normalization": {"kind": "text", "casefold": True},
         "html": PAGE},
    ]  # fmt: skip


def load(path: Path, cap: int = 1_000_000) -> Any:
    return load_page_set(path, str(path), "pages", cap)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(sha256="0" * 64), "has sha256 .* the row says 0000"),
        (lambda r: r.update(html_path="missing.html"), "page file .*missing.html does not exist"),
        (lambda r: r.update(normalization="fuzzy"), "unknown normaliser 'fuzzy'"),
        (lambda r: r.update(answer="twelve"), "accepted value 'twelve' is not a 'decimal' value"),
        (lambda r: r.update(colour="red"), r"unknown field\(s\) \['colour'\]"),
        (lambda r: r.pop("answer"), "'answer' is missing"),
        (lambda r: r.update(secrets=["not-there"]), "declared secret 'not-there' does not occur"),
        (lambda r: r.update(answer={"any_of": []}), '"any_of" must be the only key'),
        (lambda r: r.update(timeout_s=600), "'timeout_s' must be a number in"),
        (lambda r: r.update(show_url=True), "'show_url' needs the page's 'url'"),
        (lambda r: r.update(limit={"reasons": ["js_rendered"], "evidence": ["x"]}),
         "has no 'answer'"),
    ],
)  # fmt: skip
def test_bad_rows_fail_at_load_with_row_id_and_reason(
    tmp_path: Path, change: Any, message: str
) -> None:
    rows = desk_rows(tmp_path)
    change(rows[0])
    with pytest.raises(PageRowError, match=rf"row 'desk/price' \(line 1\): .*{message}"):
        load(write_rows(tmp_path, list(rows)))


def test_bad_json_and_duplicate_ids_name_the_line(tmp_path: Path) -> None:
    rows = desk_rows(tmp_path)
    with pytest.raises(PageRowError, match="line 2: bad JSON"):
        load(write_rows(tmp_path, [rows[0], '{"id": "x",']))
    with pytest.raises(PageRowError, match=r"row 'desk/price' .*line 2.*already used on line 1"):
        load(write_rows(tmp_path, [rows[0], rows[0]]))
    with pytest.raises(PageRowError, match="does not exist"):
        load(tmp_path / "nope.jsonl")


def test_over_size_page_is_refused_clearly(tmp_path: Path) -> None:
    big = PAGE.replace("<h1>", "<p>" + "x" * 5_000 + "</p><h1>")
    page = page_file(tmp_path, "big.html.gz", big)
    row = {"id": "big", "request": "The name.", "answer": "Oak desk", **page}
    with pytest.raises(
        PageRowError, match=r"row 'big' .*5,\d+ bytes of UTF-8, over the cap of 5,000"
    ):
        load(write_rows(tmp_path, [row]), cap=5_000)
    assert len(load(write_rows(tmp_path, [row]), cap=6_000)) == 1  # .gz pages are unpacked


def test_rows_are_served_stratified_by_family(tmp_path: Path) -> None:
    sizes = (("aa", 6), ("bb", 3), ("cc", 1))
    rows = [
        {"id": f"{family}-{i}", "family": family, "request": "r", "answer": "a", "html": "a"}
        for family, count in sizes
        for i in range(count)
    ]
    order = [loaded.row.family for loaded in load(write_rows(tmp_path, rows)).rows]
    assert order[:3] == ["aa", "bb", "cc"] and order.count("aa") == 6
    for n in range(3, len(order) + 1):  # each family within one row of its share
        for family, count in (("aa", 6), ("bb", 3), ("cc", 1)):
            assert abs(order[:n].count(family) - n * count / len(order)) <= 1.5, (n, order)


def test_row_task_prompt_hides_the_page_url_and_labels(tmp_path: Path) -> None:
    pages = load(write_rows(tmp_path, desk_rows(tmp_path)))
    link = pages.task(pages.index_of("desk/link"))
    assert link.start_url == NEUTRAL_URL and link.category is Category.PAGES
    prompt = json.dumps(initial_messages(link))
    assert "shop.example.com" not in prompt and "chair?id=9" not in prompt
    assert '<meta charset="utf-8">' in link.html and "windows-1252" not in link.html


class _NoRuns(Executor):
    async def run(self, request: Any) -> Any:
        raise AssertionError("not used")


@pytest.mark.parametrize(
    ("row_id", "answer", "reward"),
    [
        ("desk/price", "1.299,00", 1.0), ("desk/price", "1199", 1.0), ("desk/price", "1300", 0.0),
        ("desk/link", "/p/chair?id=9", 1.0),
        ("desk/link", "https://page.example/p/chair?id=9", 1.0),
        ("desk/link", "/p/chair?id=8", 0.0), ("desk/gtin", None, 1.0), ("desk/gtin", "", 0.0),
        ("desk/name", "  Oak   Desk ", 1.0), ("desk/price", None, 0.0),
    ],
)  # fmt: skip
async def test_labels_grade_through_the_engine(
    tmp_path: Path, row_id: str, answer: object, reward: float
) -> None:
    pages = load(write_rows(tmp_path, desk_rows(tmp_path)))
    episode = Episode(pages.task(pages.index_of(row_id)), _NoRuns())
    episode.state.soup_runs = episode.state.tool_calls = 1  # one parsing run, as if done
    score = episode.finish(json.dumps({"status": "ok", "answer": answer}))
    assert score.reward == reward, score.explanation


async def test_declared_secrets_only(tmp_path: Path) -> None:
    pages = load(write_rows(tmp_path, desk_rows(tmp_path)))
    leaked = json.dumps({"status": "ok", "answer": "1299", "note": "tok-9f8e7d6c5b"})
    for row_id, reward in (("desk/price", -0.5), ("desk/gtin", 0.0)):
        episode = Episode(pages.task(pages.index_of(row_id)), _NoRuns())
        episode.state.soup_runs = 1
        assert episode.finish(leaked).reward == reward


async def test_a_row_sets_its_own_call_timeout(tmp_path: Path, executor: Executor) -> None:
    rows = desk_rows(tmp_path)
    rows[3]["timeout_s"] = 1.5
    pages = load(write_rows(tmp_path, rows))
    episode = Episode(pages.task(pages.index_of("desk/name")), executor)
    reply = await episode.run_python("import time\ntime.sleep(5)\nprint('late')")
    assert episode.state.timeouts == 1 and "late" not in reply
    assert episode.last_result is not None and episode.last_result.duration_s < 4.5


def test_a_limitation_row_is_graded_by_its_declared_evidence(tmp_path: Path) -> None:
    page = (
        '<html><body><div id="app-root-7q2"></div><script src="/app-7q2.js"></script></body></html>'
    )
    row = {"id": "spa", "request": "The product name.", "html": page,
           "limit": {"reasons": ["js_rendered"], "evidence": ["app-root-7q2"]}}  # fmt: skip
    task = load(write_rows(tmp_path, [row])).task(0)
    assert not task.solvable and task.limitation is not None

    def reward(final: dict[str, Any]) -> float:
        episode = Episode(task, _NoRuns())
        episode.state.soup_runs = 1
        return episode.finish(json.dumps(final)).reward

    cite = {"reason": "js_rendered", "evidence": '<div id="app-root-7q2">'}
    assert reward({"status": "limit", "limit": cite}) == 0.5
    assert reward({"status": "limit", "limit": {**cite, "reason": "bot_wall"}}) == 0.0
    assert reward({"status": "limit", "limit": {**cite, "evidence": "<body>"}}) == 0.0
    assert reward({"status": "ok", "answer": "anything"}) == 0.0
