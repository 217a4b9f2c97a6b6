"""Parts of a page set split by site: a rows file's ``#train`` and ``#eval`` parts share no host
and together hold every row; the taskset streams a training part endlessly, in a fixed
shuffled order, with deferred prompts the worker replaces by the row's request."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
from bs4_env.pages.rows import PageRowError
from bs4_env.pages.sets import canonical_name, host_of, page_set, page_task

HOSTS = [f"shop{n}.example" for n in range(24)]


@pytest.fixture()
def rows_file(tmp_path: Path) -> Path:
    """Two rows on each of 24 sites (hosts with and without ``www.``)."""
    lines = []
    for n, host in enumerate(HOSTS):
        for k in range(2):
            prefix = "www." if k else ""
            html = f"<html><body><h1>Item {n}-{k}</h1></body></html>"
            row = {"id": f"{host}/{k}", "request": "The item's heading.", "html": html,
                   "answer": f"Item {n}-{k}", "url": f"https://{prefix}{host}/p/{k}",
                   "family": f"fam{k}"}  # fmt: skip
            lines.append(json.dumps(row))
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_parts_split_by_host_and_cover_every_row(rows_file: Path) -> None:
    whole = page_set(str(rows_file))
    train, evaluation = page_set(f"{rows_file}#train"), page_set(f"{rows_file}#eval")
    hosts = {
        part: {host_of(loaded.row.url or "") for loaded in pages.rows}
        for part, pages in (("train", train), ("eval", evaluation))
    }
    assert hosts["train"] and hosts["eval"] and not hosts["train"] & hosts["eval"]
    ids = sorted(loaded.row.id for pages in (train, evaluation) for loaded in pages.rows)
    assert ids == sorted(loaded.row.id for loaded in whole.rows)
    assert train.name == canonical_name(str(rows_file), "train") == f"{rows_file}#train"
    task = page_task(train.name, 0, DEFAULT_MAX_PAGE_BYTES)
    assert task.row_id == train.rows[0].row.id


def test_part_names_are_checked(rows_file: Path) -> None:
    with pytest.raises(ValueError, match="no training part"):
        canonical_name("real", "train")
    with pytest.raises(ValueError, match="one of"):
        canonical_name("real2", "test")
    with pytest.raises(ValueError, match="already names"):
        canonical_name("real2#eval", "train")
    assert canonical_name("real2", "train") == canonical_name("real2#train") == "real2#train"
    no_url = rows_file.with_name("bare.jsonl")
    no_url.write_text(json.dumps({"id": "a", "request": "r", "html": "<p>x</p>", "answer": "x"}))
    with pytest.raises(PageRowError, match="needs the row's 'url'"):
        page_set(f"{no_url}#train")


def test_a_training_part_streams_with_deferred_prompts(rows_file: Path) -> None:
    pytest.importorskip("verifiers.v1")
    from bs4_env.integrations.verifiers_v1.config import BS4TasksetConfig
    from bs4_env.integrations.verifiers_v1.deferred_prompt import deferred_prompt
    from bs4_env.integrations.verifiers_v1.taskset import BeautifulSoupTaskset

    config = BS4TasksetConfig(pages=str(rows_file), pages_part="train")
    taskset = BeautifulSoupTaskset(config)
    assert type(taskset).INFINITE is True
    train = page_set(f"{rows_file}#train")
    drawn = [task.data for task in itertools.islice(iter(taskset), 3 * len(train))]
    again = [task.data for task in itertools.islice(iter(BeautifulSoupTaskset(config)), 10)]
    assert [d.id for d in again] == [d.id for d in drawn[:10]]
    first_pass = [d.seed for d in drawn[: len(train)]]
    assert sorted(first_pass) == list(range(len(train))) and first_pass != sorted(first_pass)
    assert [d.seed for d in drawn[len(train) : 2 * len(train)]] == first_pass
    for data in drawn[:5]:
        assert data.prompt == deferred_prompt(data.split, data.archetype, data.seed)
        assert data.pages == train.name and data.row_id == train.rows[data.seed].row.id
    finite = BeautifulSoupTaskset(BS4TasksetConfig(pages=str(rows_file), pages_part="eval"))
    assert type(finite).INFINITE is False
    assert len(list(finite)) == len(page_set(f"{rows_file}#eval"))
    with pytest.raises(ValueError, match="set pages too"):
        BS4TasksetConfig(pages_part="train")
