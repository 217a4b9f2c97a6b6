"""Every row of every shipped rows file (``bs4_env/real/data/*.jsonl``): each accepted value
scores 1.0 through the grader and a perturbed one 0.0, and no accepted value shows in the
row's prompt.

Perturbed: a scalar changed (a number +0.01, a date +1 day, text with " 2" added); a list with
one item changed, one dropped, one added, and two different items swapped where order counts
(an unordered list must still score 1.0 reversed); a record with each field changed in turn,
each left out, and an extra key (a record must still score 1.0 with its keys reordered). A
perturbed value that equals another of the row's accepted values is rightly accepted.

Page-free, so it runs everywhere and covers a rows file the day it is added: each row is loaded
with its page swapped for a stub that holds the row's declared secrets and evidence, through the
same loader, task builder, engine and grader as a run (grading never reads the page).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import bs4_env.real
from bs4_env.episode.engine import Episode
from bs4_env.episode.prompt import initial_messages
from bs4_env.pages.normalizers import Normalizer
from bs4_env.pages.pageset import PageSet, load_page_set
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.model import JSONValue, Task

DATA = Path(bs4_env.real.__file__).parent / "data"
ROWS_FILES = sorted(DATA.glob("*.jsonl"))
PAGE_FIELDS = ("html", "html_path", "source", "sha256", "charset")
MIN_LEAF_CHARS = 4
"""Items and fields shorter than this may occur in a prompt: any prose holds "5" or "10"."""


def test_there_are_rows_files() -> None:
    assert ROWS_FILES and "real.jsonl" in {path.name for path in ROWS_FILES}


def stubbed(rows_file: Path, folder: Path) -> Path:
    """``rows_file`` with each row's page replaced by an inline stub page."""
    out = []
    for text in rows_file.read_text(encoding="utf-8").splitlines():
        if not text.strip() or text.lstrip().startswith("#"):
            out.append(text)
            continue
        row = {key: value for key, value in json.loads(text).items() if key not in PAGE_FIELDS}
        declared = [*row.get("secrets", []), *row.get("limit", {}).get("evidence", [])]
        row["html"] = f"<html><body>{' '.join(declared)}</body></html>"
        out.append(json.dumps(row, ensure_ascii=False))
    path = folder / rows_file.name
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module", params=ROWS_FILES, ids=lambda path: path.name)
def pages(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> PageSet:
    rows_file = stubbed(request.param, tmp_path_factory.mktemp("rows"))
    return load_page_set(rows_file, rows_file.name, "real", 2_500_000)


class _NoRuns(Executor):
    async def run(self, request: Any) -> Any:
        raise AssertionError("grading runs no code")


def graded(task: Task, answer: JSONValue) -> float:
    episode = Episode(task, _NoRuns())
    episode.state.soup_runs = episode.state.tool_calls = 1  # one parsing run, as if done
    return episode.finish(json.dumps({"status": "ok", "answer": answer})).reward


def _changed_scalar(value: Any, kind: str) -> JSONValue:
    if kind == "decimal":
        return str(Decimal(str(value)) + Decimal("0.01"))
    if kind == "date":
        return (date.fromisoformat(value) + timedelta(days=1)).isoformat()
    return f"{value} 2"


def variants(value: Any, rule: Normalizer) -> tuple[list[JSONValue], list[JSONValue]]:
    """Values that must score 0 under ``rule``, and rewritten ones that must still score 1."""
    if rule.kind == "list":
        item = rule.parts["item"]
        changed = variants(value[0], item)[0][0]
        wrong = [[changed, *value[1:]], value[:-1], [*value, value[0]], [*value, changed]]
        forms = [item.label_canonical(entry) for entry in value]
        moved = next((i for i in range(len(forms) - 1) if forms[i] != forms[i + 1]), None)
        if not rule.options["ordered"]:
            return wrong, [value[::-1]]
        if moved is not None:
            wrong.append([*value[:moved], value[moved + 1], value[moved], *value[moved + 2 :]])
        return wrong, []
    if rule.kind == "record":
        extra = "extra"
        while extra in value:
            extra += "_"
        wrong = [{**value, extra: value[next(iter(value))]}]
        for name, part in rule.parts.items():
            wrong.append({**value, name: variants(value[name], part)[0][0]})
            wrong.append({key: field for key, field in value.items() if key != name})
        return wrong, [dict(reversed(value.items()))]
    return [_changed_scalar(value, rule.kind)], []


def test_every_label_scores_one_and_a_perturbed_value_zero(pages: PageSet) -> None:
    for index, loaded in enumerate(pages.rows):
        row, rule = loaded.row, loaded.normalizer
        if not row.solvable:
            continue
        task = pages.task(index)
        if row.accepted == (None,):
            assert graded(task, None) == 1.0 and graded(task, "") == 0.0, row.id
            continue
        for value in row.accepted:
            assert graded(task, value) == 1.0, (row.id, value)
            wrong, right = variants(value, rule)
            for answer in wrong:
                if not any(rule.same(answer, other) for other in row.accepted):
                    assert graded(task, answer) == 0.0, (row.id, answer)
            for answer in right:
                assert graded(task, answer) == 1.0, (row.id, answer)
        assert graded(task, None) == 0.0, row.id


def leaves(value: JSONValue) -> Iterator[str]:
    if isinstance(value, list):
        for item in value:
            yield from leaves(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif value is not None:
        yield str(value)


def test_no_accepted_value_occurs_in_its_prompt(pages: PageSet) -> None:
    """No accepted value (nor a list's or record's item of MIN_LEAF_CHARS or more) is in the
    row's own request; the system prompt, the same text for every row, holds no value of
    MIN_LEAF_CHARS or more (a short value such as a yield of "2" occurs in any prose)."""
    for index, loaded in enumerate(pages.rows):
        messages = initial_messages(pages.task(index))
        shared = "\n".join(m["content"] for m in messages if m["role"] == "system").casefold()
        own = "\n".join(m["content"] for m in messages if m["role"] != "system").casefold()
        for value in loaded.row.accepted:
            if isinstance(value, list | dict):
                whole = json.dumps(value, ensure_ascii=False).casefold()
                shown = [leaf for leaf in leaves(value) if len(leaf) >= MIN_LEAF_CHARS]
                assert whole not in own and whole not in shared, (loaded.row.id, value)
            else:
                shown = [str(value)] if value is not None else []
                assert all(leaf.casefold() not in own for leaf in shown), (loaded.row.id, value)
            for leaf in shown:
                if len(leaf) >= MIN_LEAF_CHARS:
                    assert leaf.casefold() not in own + "\n" + shared, (loaded.row.id, leaf)
        if not loaded.row.show_url:
            prompt = own + "\n" + shared
            assert (loaded.row.url or "\0").casefold() not in prompt, loaded.row.id


STRUCTURED_ROWS = [
    {"id": "r/steps", "request": "Every step, in order.", "answer": ["Mix.", "Bake 40 min."],
     "normalization": {"kind": "list", "item": "text", "ordered": True}},
    {"id": "r/tags", "request": "The tags.", "answer": {"any_of": [["vegan", "quick"], ["vegan"]]},
     "normalization": {"kind": "list", "item": {"kind": "text", "casefold": True},
                       "ordered": False}},
    {"id": "r/card", "request": "The recipe card.",
     "answer": {"title": "Oak pie", "total_time": "45", "ingredients": ["salt", "flour"]},
     "normalization": {"kind": "record", "fields": {"title": "text", "total_time": "decimal",
                       "ingredients": {"kind": "list", "item": "text", "ordered": True}}}},
    {"id": "r/times", "request": "Each step's name and minutes.",
     "answer": [{"name": "prep", "minutes": "10"}, {"name": "cook", "minutes": "35.5"}],
     "normalization": {"kind": "list", "ordered": True, "item": {"kind": "record", "fields": {
         "name": "text", "minutes": "decimal"}}}},
    {"id": "r/none", "request": "The video URL.", "answer": None, "normalization": "url"},
]  # fmt: skip


def test_the_checks_hold_for_list_and_record_rows(tmp_path: Path) -> None:
    """The checks above on lists and records (none may be shipped yet), and that they fail."""
    source = tmp_path / "source.jsonl"
    source.write_text("".join(json.dumps({**row, "html": "<p></p>"}) + "\n" for row in
                              STRUCTURED_ROWS))  # fmt: skip
    pages = load_page_set(stubbed(source, tmp_path), "rows", "real", 2_500_000)
    test_every_label_scores_one_and_a_perturbed_value_zero(pages)
    test_no_accepted_value_occurs_in_its_prompt(pages)
    wrong, right = variants(STRUCTURED_ROWS[0]["answer"], pages.rows[0].normalizer)
    assert ["Bake 40 min.", "Mix."] in wrong and right == []
    leaky = [{**STRUCTURED_ROWS[2], "request": "The card of the Oak Pie recipe.", "html": "x"}]
    source.write_text(json.dumps(leaky[0]) + "\n")
    pages = load_page_set(stubbed(source, tmp_path), "rows", "real", 2_500_000)
    with pytest.raises(AssertionError, match="Oak pie"):
        test_no_accepted_value_occurs_in_its_prompt(pages)
