"""``bs4-env preview`` accepts the seed it prints (and results files record)."""

from __future__ import annotations

import pytest

from bs4_env.cli.main import main


@pytest.mark.parametrize(("split", "index"), [("train", 7), ("eval", 3), ("bench", 0)])
def test_preview_takes_the_seed_it_prints(
    split: str, index: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["preview", "text_by_id", "--split", split, "--seed", str(index)]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    seed = int(header.split("seed=")[1].split()[0])
    assert main(["preview", "text_by_id", "--seed", str(seed)]) == 0, "the printed seed alone"
    assert capsys.readouterr().out.splitlines()[0] == header
    assert main(["preview", "text_by_id", "--seed", str(seed), "--split", split]) == 0
    assert capsys.readouterr().out.splitlines()[0] == header


def test_preview_refuses_a_seed_of_another_split(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["preview", "text_by_id", "--seed", "200000000", "--split", "eval"]) == 2
    assert "belongs to split 'bench'" in capsys.readouterr().err
