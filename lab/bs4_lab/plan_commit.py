"""The commit that registers a run's plan: eval stages of a run start only from a committed plan.

A pre-registration is only as good as the proof that it came first. From run 4 on, every stage
after ``data`` asks git for the commit that holds ``plan.json`` exactly as it is on disk and
records it in its marker (``plan_commit``); a plan that is not in git, or differs from what git
holds, stops the run with the command that fixes it. Trials outside a repository (the tiny
model, a scratch folder) pass ``--allow-uncommitted-plan`` and their markers say so.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

# Stages that neither evaluate nor train on anything the plan's eval rows could shape.
BEFORE_REGISTRATION = ("plan", "data")


class PlanNotCommitted(ValueError):
    """``plan.json`` is not in git as it is on disk; the message says what to run."""


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, check=False)


def committed_plan(plan_file: Path) -> str:
    """The newest commit whose ``plan_file`` is byte-identical to the file on disk."""
    folder = plan_file.resolve().parent
    fix = f"commit it first: git add {plan_file} && git commit -m 'register the plan'"
    listed = _git(folder, "ls-files", "--full-name", "--error-unmatch", plan_file.name)
    if listed.returncode != 0:
        raise PlanNotCommitted(f"{plan_file} is not in a git repository's index: {fix}")
    path_in_repo = listed.stdout.decode().strip()
    log = _git(folder, "log", "-n", "1", "--format=%H", "--", plan_file.name)
    commit = log.stdout.decode().strip()
    if log.returncode != 0 or not commit:
        raise PlanNotCommitted(f"{plan_file} is staged but in no commit: {fix}")
    held = _git(folder, "show", f"{commit}:{path_in_repo}")
    if held.returncode != 0 or held.stdout != plan_file.read_bytes():
        raise PlanNotCommitted(f"{plan_file} differs from its last commit {commit[:12]}: {fix}")
    return commit
