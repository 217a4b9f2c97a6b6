"""Anti-guessing: no constant answer is right on more than 3% of seeds, and no answer is in
its own query."""

from __future__ import annotations

import pytest

from bs4_env.checks.guessing import GuessReport
from bs4_env.tasks.registry import Registry
from tests.conftest import GUESS_SEEDS
from tests.split_corpus import GROUP, train_guess

MAX_TOP_ANSWER_RATE = 0.03


@pytest.mark.slow
@pytest.mark.xdist_group(GROUP)
def test_no_archetype_is_guessable(registry: Registry) -> None:
    reports: list[GuessReport] = [train_guess(a) for a in registry.ids()]
    assert all(report.seeds == GUESS_SEEDS for report in reports)
    worst = sorted(reports, key=lambda r: (r.top_answer_rate, r.query_leak_rate), reverse=True)
    print("\nworst archetypes (top constant-answer rate, query leak rate):")
    for report in worst[:5]:
        print(
            f"  {report.archetype_id:28} {report.top_answer_rate:.3%} {report.query_leak_rate:.3%}"
        )
    too_common = [r for r in reports if r.top_answer_rate > MAX_TOP_ANSWER_RATE]
    leaky = [r for r in reports if r.query_leak_rate > 0]
    assert not too_common, too_common
    assert not leaky, leaky
