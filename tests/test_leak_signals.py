"""No single page feature is found only on limitation pages (issue 30, item 3).

The audit found private-use glyphs written raw on 58 of 1,000 limitation train pages and
on none of 7,900 solvable ones: "raw private-use characters" alone said "font obfuscation",
though real sites draw icon fonts that way all the time. Registry-wide: over train pages of
every archetype, every surface feature a skimmer reads (``leak_features``: tags and
attributes, id/class/URL shapes, script and style words, private-use glyphs raw, as
references and three in a row) that occurs on at least ``MIN_SHARE`` of limitation pages
also occurs on solvable pages. (The classifiers of ``test_leaks`` and the twin tests bound
what combinations of features tell.)
"""

from __future__ import annotations

from collections import Counter

import pytest

from bs4_env.checks.leak_features import Vocabulary, observations
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for

pytestmark = pytest.mark.slow

SEEDS = 40
MIN_SHARE = 0.01


def test_no_page_feature_is_only_on_limitation_pages(registry: Registry) -> None:
    tasks = [
        build_task(spec.id, seed_for("train", i), "train", registry)
        for spec in registry
        for i in range(SEEDS)
    ]
    surfaces = [observations(task.html) for task in tasks]
    vocabulary = Vocabulary.fit(surfaces[::2])
    limitation: Counter[str] = Counter()
    solvable: Counter[str] = Counter()
    for task, surface in zip(tasks, surfaces, strict=True):
        (solvable if task.solvable else limitation).update(vocabulary.bag(surface).keys())
    pages = sum(not task.solvable for task in tasks)
    one_sided = {
        feature: count
        for feature, count in limitation.items()
        if solvable[feature] == 0 and count > MIN_SHARE * pages
    }
    assert not one_sided, f"on limitation pages only (of {pages}): {one_sided}"
    # The glyph forms are read at all: both kinds of page show each of them.
    for form in ("raw", "reference", "run"):
        assert limitation[f"glyph:{form}"] and solvable[f"glyph:{form}"], form
