"""Requests name every look-alike a careful reader could take for the answer (issue 30, 6).

On ``initial_state_price`` and ``noscript_fallback`` pages (and every other page asked the
shared ``featured_price`` request) the price box can be empty or loading while a
"Recently viewed" sidebar shows the same product at another price. The request's
ignore-list must name that sidebar, or a careful reader could cite it. Registry-wide: every
archetype whose request is ``featured_price``, on train seeds.
"""

from __future__ import annotations

from bs4 import BeautifulSoup

from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for

SEEDS = 20


def test_featured_price_requests_name_the_recently_viewed_sidebar(registry: Registry) -> None:
    seen = 0
    for spec in registry:
        for index in range(SEEDS):
            task = build_task(spec.id, seed_for("train", index), "train", registry)
            if task.query_template != "featured_price":
                continue
            soup = BeautifulSoup(task.html, "html.parser")
            sidebars = [
                h.parent for h in soup.find_all(["h2", "h3"]) if h.get_text() == "Recently viewed"
            ]
            if not sidebars:
                continue
            seen += 1
            assert '"Recently viewed"' in task.query, (spec.id, task.seed, task.query)
    assert seen >= 100, seen
