"""Limitation archetypes and their solvable twins look alike everywhere but at the data.

Each limitation kind of this family (JS mount, PDF viewer, bot check, sign-in gate, feed
trigger) has a twin built by the same layout builder, asked with the same requests in the
same mix, carrying the same kind of element, and solved by the same reference program. A
prompt classifier and a page classifier (as in ``test_leaks``, restricted to one
limitation archetype and its twins) must not tell them apart better than chance plus a
margin.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bs4_env.checks.leaks import SIGNATURES, page_features, prompt_text
from bs4_env.tasks.model import LimitReason, Task
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for

TWINS = {
    "js_rendered": ("hydrated_mount", "noscript_fallback"),
    "pdf_embed": ("pdf_beside_table",),
    "bot_wall": ("bot_check_inline",),
    "login_required": ("signin_teaser_public",),
    "infinite_scroll": ("load_more_static", "load_more_json"),
}
PAIRS = [(limitation, twin) for limitation, twins in TWINS.items() for twin in twins]
# The planned share of each shared request template, per limitation archetype.
PLAN = {
    "js_rendered": {"table_as_dicts": 1 / 3, "featured_price": 1 / 3, "item_list": 1 / 3},
    "pdf_embed": {"column_by_header": 1 / 2, "table_as_dicts": 1 / 2},
    "bot_wall": {
        t: 1 / 4 for t in ("featured_price", "contact_phone", "table_as_dicts", "item_list")
    },
    "login_required": {"featured_price": 1 / 2, "contact_phone": 1 / 2},
    "infinite_scroll": {"item_list": 1.0},
}
REASON = {
    "js_rendered": LimitReason.JS_RENDERED,
    "pdf_embed": LimitReason.PDF_EMBED,
    "bot_wall": LimitReason.BOT_WALL,
    "login_required": LimitReason.LOGIN_REQUIRED,
    "infinite_scroll": LimitReason.INFINITE_SCROLL,
}
MIX_SEEDS = 300
TRAIN, TEST = 150, 100
MARGIN = 0.1


_CACHE: dict[tuple[str, str], list[Task]] = {}


def _tasks(archetype_id: str, split: str, n: int, registry: Registry) -> list[Task]:
    """The first ``n`` tasks of a split, generated once per test session."""
    done = _CACHE.setdefault((archetype_id, split), [])
    done.extend(
        build_task(archetype_id, seed_for(split, i), split, registry) for i in range(len(done), n)
    )
    return done[:n]


@pytest.mark.parametrize(("limitation", "twin"), PAIRS)
def test_twin_is_solved_by_the_same_program(limitation: str, twin: str, registry: Registry) -> None:
    assert registry.get(twin).solvable and not registry.get(limitation).solvable
    assert registry.reference_solution(twin) == registry.reference_solution(limitation)


@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_limitation_produces_its_reason_with_planned_template_mix(
    limitation: str, registry: Registry
) -> None:
    tasks = _tasks(limitation, "train", MIX_SEEDS, registry)
    assert {t.limitation.reasons for t in tasks if t.limitation} == {(REASON[limitation],)}
    shares = Counter(t.query_template for t in tasks)
    assert set(shares) == set(PLAN[limitation])
    for template, planned in PLAN[limitation].items():
        assert abs(shares[template] / MIX_SEEDS - planned) <= 0.08, (template, shares)


@pytest.mark.parametrize(("limitation", "twin"), PAIRS)
def test_twin_asks_the_same_requests_in_the_same_mix(
    limitation: str, twin: str, registry: Registry
) -> None:
    ours = Counter(t.query_template for t in _tasks(limitation, "train", MIX_SEEDS, registry))
    theirs = Counter(t.query_template for t in _tasks(twin, "train", MIX_SEEDS, registry))
    assert set(ours) == set(theirs)
    for template in ours:
        assert abs(ours[template] - theirs[template]) / MIX_SEEDS <= 0.12, (template, theirs)


@pytest.mark.parametrize(("limitation", "twin"), PAIRS)
def test_twin_always_carries_the_limitation_signature(
    limitation: str, twin: str, registry: Registry
) -> None:
    """A grep for the kind's signature finds it on every twin page too (abstaining on it is 0)."""
    patterns = [p for reason, p in SIGNATURES if reason is REASON[limitation]]
    for task in _tasks(twin, "train", 100, registry):
        assert any(p.search(task.html) for p in patterns), task.seed


def _accuracy(limitation: str, registry: Registry, features: str) -> float:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.tree import DecisionTreeClassifier

    # As many twin pages as limitation pages, split evenly over the twins.
    twins = TWINS[limitation]

    def sample(split: str, n: int) -> list[Task]:
        ours = _tasks(limitation, split, n, registry)
        return ours + [t for twin in twins for t in _tasks(twin, split, n // len(twins), registry)]

    train, test = sample("train", TRAIN), sample("eval", TEST)
    if features == "prompt":
        model = make_pipeline(
            CountVectorizer(ngram_range=(1, 2), binary=True, min_df=2),
            LogisticRegression(max_iter=3000),
        )
        model.fit([prompt_text(t) for t in train], [t.solvable for t in train])
        predicted = model.predict([prompt_text(t) for t in test])
    else:
        vectorizer = DictVectorizer()
        tree = DecisionTreeClassifier(max_depth=12, min_samples_leaf=2, random_state=0)

        def bag(task: Task) -> dict[str, int]:
            return dict(Counter(page_features(task.html)))

        tree.fit(vectorizer.fit_transform([bag(t) for t in train]), [t.solvable for t in train])
        predicted = tree.predict(vectorizer.transform([bag(t) for t in test]))
    return sum(p == t.solvable for p, t in zip(predicted, test, strict=True)) / len(test)


@pytest.mark.slow
@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_prompt_does_not_tell_limitation_from_twin(limitation: str, registry: Registry) -> None:
    accuracy = _accuracy(limitation, registry, "prompt")
    assert accuracy <= 0.5 + MARGIN, f"{limitation} vs {TWINS[limitation]}: {accuracy:.3f}"


@pytest.mark.slow
@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_page_tags_do_not_tell_limitation_from_twin(limitation: str, registry: Registry) -> None:
    accuracy = _accuracy(limitation, registry, "page")
    assert accuracy <= 0.5 + MARGIN, f"{limitation} vs {TWINS[limitation]}: {accuracy:.3f}"
