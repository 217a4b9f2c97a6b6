"""Solvability cannot be read from the prompt or from the page's surface (registry-wide).

Simple classifiers are trained on train-split seeds of every archetype and tested on
held-out eval-split seeds: a logistic regression on word n-grams of the prompt, and a
decision tree and a logistic regression on the page's surface features (tag and attribute
presence; id, class and URL shapes with the random parts masked; identifiers in inline
scripts, JSON blobs and styles; private-use glyphs; ``bs4_env.checks.leak_features``).
None may beat the base rate (always "solvable") by more than 3 points. A positive control
per classifier proves the pipeline does find a leak when one is planted, so these tests
can fail. The policy "abstain citing a signature element when one is present, else
answer" must score at least 0.1 below the reference policy on the bench. An element-level
model (``bs4_env.checks.leak_elements``: element-local features only, trained on train
limitation pages) must not find the blocker among a held-out limitation page's candidate
elements more than 5 points above chance (before issue 30: 1.000, chance 0.092), nor may
the same model with context features (``leak_context``: ancestors, siblings, frame title
and its years; before issue 39: 0.988, chance 0.086), and the request-blind policy that
abstains citing its top candidate must earn at most 0.02 over the bench.
"""

from __future__ import annotations

import os

import pytest

from bs4_env.checks.leak_classifiers import (
    PageSample,
    PageScores,
    planted_page_leak,
    planted_prompt_leak,
    prompt_accuracy,
)
from bs4_env.checks.leak_elements import (
    Finder,
    FinderScores,
    always_abstain_reward,
    held_out_pair,
    held_out_scores,
    train_finder,
    train_finders,
    train_vocabulary,
)
from bs4_env.checks.leak_features import Vocabulary
from bs4_env.checks.leaks import (
    base_rate,
    reference_reward,
    signature_policy_reward,
    template_shares,
)
from bs4_env.episode.prompt import SYSTEM_PROMPT
from bs4_env.tasks.manifest import load_manifest
from bs4_env.tasks.model import LimitReason, Task
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for

pytestmark = pytest.mark.slow

TRAIN_SEEDS = int(os.environ.get("BS4ENV_LEAK_TRAIN_SEEDS", "60"))
TEST_SEEDS = int(os.environ.get("BS4ENV_LEAK_TEST_SEEDS", "30"))
MARGIN = 0.03


@pytest.fixture(scope="module")
def train_tasks(registry: Registry) -> list[Task]:
    return [
        build_task(spec.id, seed_for("train", i), "train", registry)
        for spec in registry
        for i in range(TRAIN_SEEDS)
    ]


@pytest.fixture(scope="module")
def test_tasks(registry: Registry) -> list[Task]:
    return [
        build_task(spec.id, seed_for("eval", i), "eval", registry)
        for spec in registry
        for i in range(TEST_SEEDS)
    ]


def test_prompt_classifier_no_better_than_base_rate(
    train_tasks: list[Task], test_tasks: list[Task]
) -> None:
    accuracy = prompt_accuracy(train_tasks, test_tasks)
    base = base_rate(t.solvable for t in test_tasks)
    shares = [(s.template, round(s.limitation_share, 2)) for s in template_shares(train_tasks)]
    assert accuracy <= base + MARGIN, (
        f"prompt classifier {accuracy:.3f} vs base rate {base:.3f}; "
        f"limitation share by template: {shares[:6]}"
    )


def test_prompt_classifier_finds_a_planted_leak(
    train_tasks: list[Task], test_tasks: list[Task]
) -> None:
    """Positive control: one word on half the limitation prompts is found."""

    base = base_rate(t.solvable for t in test_tasks)
    assert prompt_accuracy(train_tasks, test_tasks, planted_prompt_leak) > base + MARGIN


@pytest.fixture(scope="module")
def page_sample(train_tasks: list[Task], test_tasks: list[Task]) -> PageSample:
    return PageSample(train_tasks, test_tasks)


@pytest.fixture(scope="module")
def page_scores(page_sample: PageSample) -> PageScores:
    return page_sample.scores()


def test_page_tree_no_better_than_base_rate(
    page_scores: PageScores, test_tasks: list[Task]
) -> None:
    base = base_rate(t.solvable for t in test_tasks)
    assert page_scores.tree <= base + MARGIN, (
        f"page tree {page_scores.tree:.3f} vs base {base:.3f}: {page_scores.why}"
    )


def test_page_logistic_no_better_than_base_rate(
    page_scores: PageScores, test_tasks: list[Task]
) -> None:
    base = base_rate(t.solvable for t in test_tasks)
    assert page_scores.logistic <= base + MARGIN, (
        f"page logistic regression {page_scores.logistic:.3f} vs base {base:.3f}"
    )


def test_page_classifiers_find_a_planted_leak(
    page_sample: PageSample, test_tasks: list[Task]
) -> None:
    """Positive control: one more class on the body of every limitation page (no tag or
    attribute added, so only the widened features can see it) is found by both."""
    base = base_rate(t.solvable for t in test_tasks)
    planted = page_sample.replaced(planted_page_leak).scores()
    assert planted.tree > base + MARGIN, planted.why
    assert planted.logistic > base + MARGIN, planted.logistic


def test_every_shared_template_is_mostly_solvable(train_tasks: list[Task]) -> None:
    """Per request template, limitation rows are a minority (or the wording would tell)."""
    worst = [s for s in template_shares(train_tasks) if s.limitation_share >= 0.5]
    assert not worst, [(s.template, s.rows, s.limitation_rows) for s in worst]


@pytest.fixture(scope="module")
def bench_tasks(registry: Registry) -> list[Task]:
    """Every bench row's task, generated once for the two bench policies below."""
    return [build_task(r.archetype_id, r.seed, r.split, registry) for r in load_manifest().rows]


def test_signature_policy_scores_well_below_reference_on_bench(bench_tasks: list[Task]) -> None:
    tasks = bench_tasks
    reference = sum(reference_reward(t) for t in tasks) / len(tasks)
    shortcut = sum(signature_policy_reward(t) for t in tasks) / len(tasks)
    assert shortcut <= reference - 0.1, f"signature policy {shortcut:.3f} vs {reference:.3f}"


def test_prompt_reasons_are_exactly_the_produced_reasons(train_tasks: list[Task]) -> None:
    produced = {
        reason for t in train_tasks if t.limitation is not None for reason in t.limitation.reasons
    }
    assert produced == set(LimitReason), f"never produced: {set(LimitReason) - produced}"
    for reason in LimitReason:
        assert f'"{reason.value}"' in SYSTEM_PROMPT


# The element finders see limitation pages only: they are ranked on more held-out pages
# than the classifiers above, so their sampling noise stays well below their margin.
FINDER_TEST_SEEDS = 120


@pytest.fixture(scope="module")
def limitation_test_tasks(registry: Registry) -> list[Task]:
    return [
        build_task(spec.id, seed_for("eval", i), "eval", registry)
        for spec in registry
        if not spec.solvable
        for i in range(FINDER_TEST_SEEDS)
    ]


@pytest.fixture(scope="module")
def vocabulary(page_sample: PageSample) -> Vocabulary:
    """The page classifiers' vocabulary, fitted on every other train page: what
    ``train_vocabulary(train_tasks)`` fits for the finders (same pages, same order; see
    ``test_finders_and_page_sample_fit_one_vocabulary``), so it is fitted once (8.5 CPU-s)."""
    return page_sample.vocabulary


def test_finders_and_page_sample_fit_one_vocabulary(registry: Registry) -> None:
    train = [
        build_task(archetype_id, seed_for("train", i), "train", registry)
        for archetype_id in ("js_rendered", "hydrated_mount", "bot_wall", "text_by_id")
        for i in range(12)
    ]
    fitted = train_vocabulary(train)
    assert fitted == PageSample(train, train[:2]).vocabulary and fitted.pieces


@pytest.fixture(scope="module")
def models(train_tasks: list[Task], vocabulary: Vocabulary) -> tuple[Finder, Finder]:
    """The element finder and the finder with context features, trained once on the train
    pages, each page parsed once for both (``train_finders``; the same two models as two
    ``train_finder`` calls, ``test_paired_finders_are_the_separate_ones``): the context
    finder's held-out score and the always-abstain policy below both use the second."""
    return train_finders(train_tasks, vocabulary)


@pytest.fixture(scope="module")
def held_out(
    models: tuple[Finder, Finder], limitation_test_tasks: list[Task]
) -> tuple[FinderScores, FinderScores]:
    """Both finders ranked on the held-out pages, each page parsed once for both
    (``held_out_pair``: what ``held_out_scores`` gives each)."""
    return held_out_pair(models, limitation_test_tasks)


def test_paired_finders_are_the_separate_ones(registry: Registry) -> None:
    """Training and ranking both finders from one parse of each page gives the models and
    scores that separate ``train_finder`` / ``held_out_scores`` calls give."""
    ids = ("js_rendered", "hydrated_mount", "bot_wall", "font_obfuscation", "text_by_id")
    train = [build_task(a, seed_for("train", i), "train", registry) for a in ids for i in range(8)]
    test = [build_task(a, seed_for("eval", i), "eval", registry) for a in ids for i in range(6)]
    vocabulary = train_vocabulary(train)
    pair = train_finders(train, vocabulary)
    scores = held_out_pair(pair, test)
    for context, model, score in zip((False, True), pair, scores, strict=True):
        alone = train_finder(train, context=context, vocabulary=vocabulary)
        assert model.context is context
        names = list(model.vectorizer.get_feature_names_out())
        assert names == list(alone.vectorizer.get_feature_names_out())
        assert (model.model.coef_ == alone.model.coef_).all()
        assert (model.model.intercept_ == alone.model.intercept_).all()
        assert score == held_out_scores(alone, test) == held_out_scores(model, test)
        assert score.pages > 0


@pytest.fixture(scope="module")
def finder(held_out: tuple[FinderScores, FinderScores]) -> FinderScores:
    return held_out[0]


# Issue 30 measured 1.000 before (chance 0.092), 0.880 after its first part (chance 0.093),
# and with every harmless widget a copy of a blocking element (``blocker_copies``) 0.090
# against chance 0.083 (60 train / 30 held-out seeds per limitation archetype).
FINDER_MARGIN = 0.05


def test_element_finder_is_near_chance(finder: FinderScores) -> None:
    """The blocker is not findable by its own surface much above chance."""
    assert finder.pages >= 1000 and finder.skipped == 0, finder
    assert finder.accuracy <= finder.chance + FINDER_MARGIN, finder


@pytest.fixture(scope="module")
def context_model(models: tuple[Finder, Finder]) -> Finder:
    return models[1]


@pytest.fixture(scope="module")
def context_finder(held_out: tuple[FinderScores, FinderScores]) -> FinderScores:
    return held_out[1]


# Issue 39 measured the finder with context features (ancestors, siblings, frame title and
# its years) at 0.988 against chance 0.086 before copies were framed as requested content
# (15 train / 8 held-out seeds per limitation archetype), 0.207 against chance 0.082 after
# (60 train / 30 held-out seeds), 0.232 against 0.083 on 90 held-out seeds, and 0.080
# against 0.059 once copies drew their kinds as blockers' kinds are on the page's layout
# (``copy_layouts``) with 3 to 5 more of them (60 train / 120 held-out seeds, 2026-12-06).
CONTEXT_FINDER_MARGIN = 0.05


def test_context_finder_is_near_chance(context_finder: FinderScores) -> None:
    """The blocker is not findable by what surrounds it more than 5 points above chance.

    On ``FINDER_TEST_SEEDS`` (120) held-out seeds per limitation archetype, 1,200 pages, the
    top-1 accuracy (about 0.08) has a binomial standard error of about 0.008, so the
    margin is some 6 standard errors and the measured gap (0.021) about 3.5 below it.
    """
    assert context_finder.pages >= 1000 and context_finder.skipped == 0, context_finder
    assert context_finder.accuracy <= context_finder.chance + CONTEXT_FINDER_MARGIN, context_finder


# The bound: before, such a policy earned 0.0548 over the bench (ceiling 0.0562).
MAX_ALWAYS_ABSTAIN = 0.02


def test_always_abstain_with_context_earns_little_on_bench(
    bench_tasks: list[Task], context_model: Finder
) -> None:
    """Abstaining on every bench row, citing the candidate a context finder ranks first."""
    assert always_abstain_reward(context_model, bench_tasks) <= MAX_ALWAYS_ABSTAIN
