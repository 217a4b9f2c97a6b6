"""The two set-up commands install what their job needs, and Make echoes no comment lines.

``make eval`` (the main job: the reference policy, or a model behind an endpoint) needs the
package and its ``eval`` extra only: no torch, no test tools, no lab. ``make test`` installs
everything (the dev extra and the lab of lab/), torch first through scripts/install_torch.py
(the pinned CPU build). Read from ``make -n`` on a venv path that does not exist, i.e. what a
fresh clone would run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _plan(target: str, tmp_path: Path) -> list[str]:
    make = shutil.which("make")
    if make is None:
        pytest.fail("make is not installed")
    # Under ``make test`` the parent's MAKELEVEL/MAKEFLAGS would make this make print
    # "Entering/Leaving directory" lines around the plan.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    proc = subprocess.run(
        [make, "-n", "--no-print-directory", f"VENV={tmp_path / 'venv'}", target],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return proc.stdout.splitlines()


def test_make_eval_installs_only_the_eval_extra(tmp_path: Path) -> None:
    plan = _plan("eval", tmp_path)
    installs = [line for line in plan if "pip install" in line and "--upgrade pip" not in line]
    assert len(installs) == 1, installs
    assert installs[0].endswith("-e '.[eval]'"), installs[0]
    joined = "\n".join(plan)
    for heavy in ("torch", "[dev]", "[learn]", "./lab", "install_torch"):
        assert heavy not in joined, heavy
    assert plan[-1].endswith("bs4-env eval "), "then the eval itself"


def test_make_test_installs_everything_with_torch_first(tmp_path: Path) -> None:
    plan = _plan("test", tmp_path)
    torch = next(i for i, line in enumerate(plan) if "scripts/install_torch.py 2.13.0" in line)
    dev = next(i for i, line in enumerate(plan) if line.endswith("-e '.[dev]' -e ./lab"))
    assert torch < dev


@pytest.mark.parametrize("target", ["eval", "test"])
def test_make_echoes_no_comment_lines(target: str, tmp_path: Path) -> None:
    echoed = [line for line in _plan(target, tmp_path) if line.lstrip().startswith("#")]
    assert not echoed, echoed


def test_make_test_installs_chromium_beside_pytest_and_runs_its_test_after(
    tmp_path: Path,
) -> None:
    """The browser install (82 s on a fresh machine) is a side job of the main phase, whose
    pytest run leaves out the one test that needs Chromium; that test runs last, once."""
    plan = "\n".join(_plan("test", tmp_path))
    browser = "tests/test_html_report.py::test_report_in_headless_chromium"
    main = plan.index("scripts/beside.sh")
    install = "apt-get install -y -qq chromium"
    assert install not in plan[:main], "no install before the main phase"
    main_phase = plan[main : plan.index("sandbox-latency")]
    assert "browser-install" in main_phase and install in main_phase
    pytest_runs = main_phase.count("scripts/phase.sh pytest ")
    assert pytest_runs == 2 and main_phase.count(f"--deselect {browser}") == pytest_runs
    after = plan[plan.index("sandbox-latency") :]
    assert after.count(browser) == 1 and after.rstrip().endswith(f"-q {browser}")
