"""Rows files at every entry point's door: ``bs4-env eval --pages`` (reference programs, per
family results, a stratified ``-n``), classic ``load_environment(pages=...)`` arguments, and
bad rows refused before anything runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bs4_env.cli.main import main
from bs4_env.integrations.verifiers_classic.options import ClassicOptions
from bs4_env.pages.sets import page_set
from bs4_env.tasks.modes import ConfigError
from tests.e2e.byo_rows import write_byo_rows


@pytest.fixture
def rows_file(tmp_path: Path) -> Path:
    return write_byo_rows(tmp_path)


def test_eval_pages_runs_the_reference_programs(rows_file: Path, tmp_path: Path) -> None:
    output = tmp_path / "out.json"
    argv = ["eval", "--pages", str(rows_file), "-o", str(output), "--quiet", "-c", "2"]
    assert main(argv) == 0
    results = json.loads(output.read_text())
    assert results["split"] == "pages" and results["pages"] == str(rows_file.resolve())
    assert results["avg_reward"] == 1.0 and results["errors"] == 0
    assert set(results["by_archetype"]) == set(results["families"]) == {
        "product_price", "product_gtin", "article_title", "article_date",
    }  # fmt: skip
    assert "mode" not in results and len(results["pages_version"]) == 12


def test_eval_pages_n_is_a_stratified_prefix(rows_file: Path, tmp_path: Path) -> None:
    output = tmp_path / "out.json"
    argv = ["eval", "--pages", str(rows_file), "-n", "3", "-o", str(output), "--quiet"]
    assert main(argv) == 0
    families = {r["archetype"] for r in json.loads(output.read_text())["rollouts"]}
    assert len(families) == 3


def test_eval_pages_refuses_generated_task_options_and_bad_rows(
    rows_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--pages", str(rows_file), "--split", "eval"]) == 2
    assert "--pages chooses its own rows; drop --split" in capsys.readouterr().err
    rows_file.write_text(rows_file.read_text().replace('"sha256": "', '"sha256": "0', 1))
    output = tmp_path / "never.json"
    assert main(["eval", "--pages", str(rows_file), "-o", str(output)]) == 2
    err = capsys.readouterr().err
    assert "row 'shop/price' (line 1)" in err and "sha256" in err and not output.exists()


def test_eval_pages_without_a_reference_program_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"id": "a", "request": "r", "answer": "x", "html": "<p>x</p>"}))
    assert main(["eval", "--pages", str(rows), "-o", str(tmp_path / "o.json"), "--quiet"]) == 3
    record = json.loads((tmp_path / "o.json").read_text())["rollouts"][0]
    assert "no reference program for family 'page'" in record["error"]


def test_classic_arguments_take_pages(rows_file: Path) -> None:
    options = ClassicOptions.from_kwargs(pages=str(rows_file), num_examples=2, max_turns=4)
    assert options.pages == str(rows_file) and options.dataset.num_examples == 2
    with pytest.raises(ConfigError, match=r"pages= chooses its own rows; drop \['split'\]"):
        ClassicOptions.from_kwargs(pages=str(rows_file), split="bench")
    with pytest.raises(ConfigError, match="max_page_bytes must be int"):
        ClassicOptions.from_kwargs(pages=str(rows_file), max_page_bytes="big")
    with pytest.raises(ValueError, match="over the cap of 100"):
        ClassicOptions.from_kwargs(pages=str(rows_file), max_page_bytes=100)


def test_classic_rows_carry_the_page_identity(rows_file: Path) -> None:
    from bs4_env.integrations.verifiers_classic.dataset import PageRowTransform, task_of

    transform = PageRowTransform(str(rows_file), 2_500_000, None)
    batch = transform({"row": [0, 2], "prompt": [None, None]})
    first = page_set(str(rows_file)).task(0)
    assert batch["info"][0]["pages"] == str(rows_file.resolve())
    assert task_of(batch["info"][0]).row_id == first.row_id
    assert batch["prompt"][1][1]["content"].startswith("Page: https://page.example/")
