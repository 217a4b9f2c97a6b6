"""Expert episodes on real training pages (``bs4-env sft-data --real-episodes``): the generic
reference program replayed through the engine, kept only where it earns the best reward, drawn
from a training part only (a rows file's ``#train`` part here: inline recipe pages on many
sites, some labelled differently from what the page's JSON-LD says, where the program is
wrong and its episode must be dropped)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bs4_env.cli.main import main
from bs4_env.pages.sets import page_set
from bs4_env.sandbox.base import Executor
from bs4_env.sft.real_pages import KIND, append_real_episodes, training_part

PAGE = (
    '<html><head><script type="application/ld+json">{{"@type": "Recipe", "name": "{name}"}}'
    "</script></head><body><h1>{name}</h1></body></html>"
)


@pytest.fixture()
def rows_file(tmp_path: Path) -> Path:
    lines = []
    for n in range(30):
        name = f"Soup number {n}"
        label = name if n % 3 else f"Stew number {n}"  # every third label is not the page's
        row = {"id": f"site{n}/soup", "family": "recipe_title", "request": "The recipe's name.",
               "html": PAGE.format(name=name), "answer": label,
               "url": f"https://site{n}.example/soup"}  # fmt: skip
        lines.append(json.dumps(row))
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


async def test_kept_episodes_are_right_and_from_the_training_part(
    rows_file: Path, tmp_path: Path, executor: Executor
) -> None:
    out = tmp_path / "train.jsonl"
    train = page_set(training_part(str(rows_file)))
    tally = await append_real_episodes(str(rows_file), 100, 0, executor, out)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    kept_ids = {record["row_id"] for record in records}
    part_ids = {loaded.row.id for loaded in train.rows}
    assert kept_ids <= part_ids and sum(tally.dropped.values()) >= 1
    assert len(records) + sum(tally.dropped.values()) == len(train)
    for record in records:
        n = int(record["row_id"].removeprefix("site").split("/")[0])
        assert n % 3, "a row whose label the page does not give cannot have a right episode"
        assert record["reward"] == 1.0 and record["kind"] == KIND
        final = json.loads(record["messages"][-1]["content"])
        assert final == {"status": "ok", "answer": f"Soup number {n}"}
    with pytest.raises(ValueError, match="evaluation part"):
        training_part(f"{rows_file}#eval")


def test_sft_data_flag_appends_real_episodes(rows_file: Path, tmp_path: Path) -> None:
    argv = ["sft-data", "-n", "2", "--archetypes", "text_by_id", "--out", str(tmp_path)]
    argv += ["--real-episodes", "6", "--real-pages", str(rows_file)]
    assert main(argv) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    real = summary["real_pages"]
    assert real["kept"] + real["dropped"] == 6 and real["kept"] >= 1
    kinds = [
        json.loads(line)["kind"] for line in (tmp_path / "train.jsonl").read_text().splitlines()
    ]
    assert kinds.count(KIND) == real["kept"] and len(kinds) == real["kept"] + summary["kept"]
