"""Every blocking element has harmless copies with its surface (issue 30, item 2).

On limitation pages of every kind, the chrome carries copies of the blocking elements
built by their own builders, in the same slot frames (``bs4_env.tasks.html.blocker_copies``).
So for each limitation archetype, the element-local surface of each candidate element of
its blocker (tag, attribute names, id and class shapes, parent tag and classes, whether it
sits in the main region: ``leak_elements.features`` without the words) is also the surface
of some candidate that blocks nothing, on the pages of the registry. Before the
copies, the blockers' own shapes (an image ``cs-phone-*`` in a contact row, a mount's
deferred script in the head, a player in ``div.player``) were theirs alone.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from lxml import etree

from bs4_env.checks.leak_elements import PARSER, features, is_candidate, page_candidates
from bs4_env.checks.leak_features import Vocabulary, observations
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for

pytestmark = pytest.mark.slow

SEEDS = 25


def _surface(row: dict[str, int]) -> frozenset[str]:
    return frozenset(name for name in row if not name.startswith("word:"))


@pytest.fixture(scope="module")
def pages(registry: Registry) -> list[Task]:
    return [
        build_task(spec.id, seed_for("train", i), "train", registry)
        for spec in registry
        for i in range(SEEDS // 4 if spec.solvable else SEEDS)
    ]


def test_every_blocker_surface_is_also_a_harmless_one(pages: list[Task]) -> None:
    vocabulary = Vocabulary.fit(observations(t.html) for t in pages[::2])
    harmless: set[frozenset[str]] = set()
    blocking: dict[str, set[frozenset[str]]] = defaultdict(set)
    for task in pages:
        if task.limitation is None:
            # A solvable page has no blocker: every candidate of it blocks nothing.
            root = etree.fromstring(task.html.encode("utf-8"), PARSER)
            harmless.update(
                _surface(features(el, vocabulary))
                for el in root.iter()
                if isinstance(el.tag, str) and is_candidate(el)
            )
            continue
        page = page_candidates(task, vocabulary)
        for row, blocks in zip(page.rows, page.blocking, strict=True):
            (blocking[task.archetype_id] if blocks else harmless).add(_surface(row))
    assert len(blocking) == sum(not t.solvable for t in pages) // SEEDS
    alone = {
        archetype: sorted(sorted(surface) for surface in surfaces - harmless)
        for archetype, surfaces in blocking.items()
        if surfaces - harmless
    }
    assert not alone, repr(alone)
