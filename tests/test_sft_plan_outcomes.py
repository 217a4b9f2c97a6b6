"""``sft.plan.shared_outcomes``: within one ``sft-data`` run a repeated host dry run of the
same program on the same page is answered from a store, with what running it again gives."""

from __future__ import annotations

from random import Random

import pytest

from bs4_env.sft import plan
from bs4_env.sft.episodes import base_draw, candidate_plans
from bs4_env.sft.plan import host_outcome, shared_outcomes
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for

PRINTS = "soup = make_soup()\nprint(soup.title.get_text())"
RAISES = "soup = make_soup()\nprint(soup.find('no-such-tag').text)"


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The programs ``host_outcome`` really runs (the real runner, counted)."""
    ran: list[str] = []
    real = plan._run

    def run(html: str, code: str) -> tuple[str, Exception | None]:
        ran.append(code)
        return real(html, code)

    monkeypatch.setattr(plan, "_run", run)
    return ran


def test_repeats_are_answered_within_the_block_only(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = _counted(monkeypatch)
    task = build_task("text_by_id", seed_for("train", 0), "train")
    fresh_out, fresh_error = host_outcome(task, RAISES)
    assert host_outcome(task, RAISES)[1] is not fresh_error and len(ran) == 2
    with shared_outcomes():
        first = host_outcome(task, RAISES)
        again = build_task("text_by_id", seed_for("train", 0), "train")  # equal page, new str
        second = host_outcome(again, RAISES)
        printed = host_outcome(task, PRINTS)
        other = host_outcome(build_task("text_by_id", seed_for("train", 1), "train"), PRINTS)
    assert ran == [RAISES, RAISES, RAISES, PRINTS, PRINTS]
    assert second is first and first[0] == fresh_out
    assert type(first[1]) is type(fresh_error) and str(first[1]) == str(fresh_error)
    assert first[1] is not None and first[1].__traceback__ is None
    assert printed[1] is None and printed[0].strip() and printed != other
    host_outcome(task, RAISES)
    assert len(ran) == 6  # the store ends with the block


def test_the_store_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan, "MAX_SHARED_OUTCOMES", 2)
    ran = _counted(monkeypatch)
    task = build_task("text_by_id", seed_for("train", 0), "train")
    codes = [f"print({n})" for n in range(3)]
    with shared_outcomes():
        for code in codes:
            host_outcome(task, code)
        host_outcome(task, codes[0])  # dropped first
        host_outcome(task, codes[2])  # still held
    assert ran == [*codes, codes[0]]


def test_plans_are_the_same_with_the_store() -> None:
    """The writers' candidate plans (many host dry runs each, repeats among them) are the
    same without the store, with it, and answered from it a second time."""
    registry = default_registry()
    for archetype_id in ("text_by_id", "table_dicts_by_header", "form_fields", "json_ld"):
        task = build_task(archetype_id, seed_for("train", 2), "train")
        plain = candidate_plans(task, registry, Random(archetype_id))
        with shared_outcomes():
            stored = candidate_plans(task, registry, Random(archetype_id))
            repeated = candidate_plans(task, registry, Random(archetype_id))
        assert plain and stored == plain and repeated == plain, archetype_id


def test_a_kept_base_draw_gives_the_same_plans() -> None:
    """``sft-data``'s mix draws each row's base plans with the episode's own RNG; the episode
    goes on from that draw (``Assignment.bases``) instead of drawing again, and gets the
    plans a fresh draw gives (solvable archetypes and a limitation one)."""
    registry = default_registry()
    for archetype_id in ("text_by_id", "table_dicts_by_header", "js_rendered"):
        task = build_task(archetype_id, seed_for("train", 3), "train")
        drawn = base_draw(task, registry, Random(archetype_id))
        fresh = candidate_plans(task, registry, Random(archetype_id))
        kept = candidate_plans(task, registry, Random(archetype_id), drawn)
        assert fresh and kept == fresh, archetype_id
