"""scripts/recheck_primary.py: the independent recomputation agrees with run 3's report and
catches a report that does not match its documents."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.scripts_import import load_script

ROOT = Path(__file__).resolve().parents[1]
RUN3 = ROOT / "outputs" / "learn-0p5b-run3-ei"
RUN4 = ROOT / "outputs" / "learn-0p5b-run4"


recheck = load_script("recheck_primary")


@pytest.mark.parametrize("subset", ["trained", "held_out", "limitation"])
@pytest.mark.parametrize(("before", "after"), [("base", "sft"), ("sft", "ei"), ("base", "ei")])
def test_run3_summary_agrees(subset: str, before: str, after: str) -> None:
    code = recheck.main([str(RUN3 / f"eval-{before}/{subset}-greedy.json"),
                         str(RUN3 / f"eval-{after}/{subset}-greedy.json"),
                         "--summary", str(RUN3 / "summary.json"), "--subset", subset,
                         "--before", before, "--after", after])  # fmt: skip
    assert code == 0


def test_run3_primary_figures() -> None:
    mine = recheck.recheck(RUN3 / "eval-sft/trained-greedy.json",
                           RUN3 / "eval-ei/trained-greedy.json", 1000)  # fmt: skip
    assert (mine["archetypes"], mine["improved"], mine["worse"], mine["tied"]) == (22, 11, 4, 7)
    assert round(mine["mean_difference"], 3) == 0.148 and mine["exact"]
    shown = (round(mine["low"], 3), round(mine["high"], 3), round(mine["p_value"], 3))
    assert shown == (-0.088, 0.384, 0.244)


def test_a_doctored_summary_is_caught(tmp_path: Path) -> None:
    summary = json.loads((RUN3 / "summary.json").read_text(encoding="utf-8"))
    for test in summary["paired"]:
        key = (test["subset"], test["before"], test["after"], test.get("unit"))
        if key == ("trained", "sft", "ei", "archetype"):
            test["mean_difference"]["mean"] += 0.01
            test["p_value"] = 0.04
    doctored = tmp_path / "summary.json"
    doctored.write_text(json.dumps(summary), encoding="utf-8")
    documents = [str(RUN3 / f"eval-{stage}/trained-greedy.json") for stage in ("sft", "ei")]
    code = recheck.main(
        [*documents, "--summary", str(doctored), "--before", "sft", "--after", "ei"]
    )
    assert code == 1


def test_other_rows_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads((RUN3 / "eval-ei/trained-greedy.json").read_text(encoding="utf-8"))
    document["rollouts"] = document["rollouts"][1:]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(document), encoding="utf-8")
    assert recheck.main([str(RUN3 / "eval-sft/trained-greedy.json"), str(short)]) == 2
    assert "different rows" in capsys.readouterr().err


def test_monte_carlo_agrees_with_enumeration(monkeypatch: pytest.MonkeyPatch) -> None:
    differences = np.random.default_rng(3).choice([-0.5, -0.25, 0.25, 0.5, 0.75], size=16)
    exact, is_exact, _ = recheck.sign_flip_p(differences, 1000)
    monkeypatch.setattr(recheck, "EXACT_LIMIT", 4)
    sampled, sampled_exact, error = recheck.sign_flip_p(differences, 200_000)
    assert is_exact and not sampled_exact and 0 < error < 0.002
    assert abs(sampled - exact) < 4 * error


def test_run4_primary_figures() -> None:
    """docs/learning-run4.md: control -> EI on the trained rows, -0.010 [-0.113, +0.093],
    p = 0.828, 15/14/36; the differences' sd 0.417 gives 48% power at the registered +0.10."""
    mine = recheck.recheck(RUN4 / "eval-control/trained-greedy.json",
                           RUN4 / "eval-ei/trained-greedy.json", 50_000)  # fmt: skip
    assert (mine["archetypes"], mine["improved"], mine["worse"], mine["tied"]) == (65, 15, 14, 36)
    assert round(mine["mean_difference"], 3) == -0.010
    assert (round(mine["low"], 3), round(mine["high"], 3)) == (-0.113, 0.093)
    assert not mine["exact"] and abs(mine["p_value"] - 0.828) < 4 * mine["p_standard_error"] + 1e-3
    assert round(mine["sd_difference"], 3) == 0.417
    assert round(mine["power_at_gain"]["power"], 2) == 0.48


@pytest.mark.parametrize(("gain", "low", "high"), [(0.0, 0.049, 0.051), (0.3, 0.99, 1.0)])
def test_power_is_the_t_tests(gain: float, low: float, high: float) -> None:
    """No gain: the test's own 5%; a gain of 0.3 with sd 0.42 over 65 units: all but sure."""
    power = recheck.t_test_power(gain, 0.42, 65)
    assert power is not None and low <= power <= high
    assert recheck.t_test_power(0.1, 0.0, 65) is None and recheck.t_test_power(0.1, 0.4, 1) is None
