"""A run-4 plan must be committed before its eval stages run (bs4_lab.plan_commit)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bs4_env.cli.main import main
from bs4_lab.plan_commit import PlanNotCommitted, committed_plan


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        capture_output=True,
        check=True,
        text=True,
    )
    return done.stdout.strip()


def test_only_a_plan_git_holds_as_it_is_on_disk_counts(tmp_path: Path) -> None:
    plan = tmp_path / "run" / "plan.json"
    plan.parent.mkdir()
    plan.write_text('{"seed": 1}\n')
    with pytest.raises(PlanNotCommitted, match="not in a git repository"):
        committed_plan(plan)  # no repository at all
    _git(tmp_path, "init", "-q")
    with pytest.raises(PlanNotCommitted, match="not in a git repository's index"):
        committed_plan(plan)  # in a repository, never added
    _git(tmp_path, "add", "run/plan.json")
    with pytest.raises(PlanNotCommitted, match="in no commit"):
        committed_plan(plan)
    _git(tmp_path, "commit", "-q", "-m", "register")
    head = _git(tmp_path, "rev-parse", "HEAD")
    assert committed_plan(plan) == head
    plan.write_text('{"seed": 2}\n')  # edited after registration
    with pytest.raises(PlanNotCommitted, match=f"differs from its last commit {head[:12]}"):
        committed_plan(plan)


def test_an_eval_stage_of_an_uncommitted_run_4_plan_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["learn", "--model", "tiny", "--out", str(out), "--stages", "plan,eval-base"]
    assert main(args) == 2
    assert "plan.json is not in a git repository" in capsys.readouterr().err
    assert (out / "plan.json").is_file() and not (out / "stages" / "eval-base.json").exists()
