"""Where ``get_text(" ", strip=True)`` and the displayed text differ, the schema says so.

The common idiom puts a space at every tag boundary (``"$ 648.94"`` for
``$648<sup>.94</sup>``); a browser does not, and the truth follows the browser. For every
solvable archetype, if some truth string is the displayed text of a page element whose
idiom text differs, the answer schema must state the display rule (``queries.DISPLAYED``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from bs4 import BeautifulSoup, Tag

from bs4_env.tasks.model import JSONValue
from bs4_env.tasks.queries import DISPLAYED
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for
from tests.conftest import archetype_ids

SEEDS = 12


def _strings(value: JSONValue) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def _idiom_differs(html: str, wanted: set[str]) -> str | None:
    """A truth string whose element's ``get_text(" ", strip=True)`` reads differently."""
    soup = BeautifulSoup(html, "lxml")
    for tag in soup.find_all(True):
        if not isinstance(tag, Tag) or tag.name in ("script", "style"):
            continue
        shown = " ".join(tag.get_text().split())
        if shown in wanted and " ".join(tag.get_text(" ", strip=True).split()) != shown:
            return shown
    return None


@pytest.mark.slow
@pytest.mark.parametrize("archetype_id", archetype_ids())
def test_schema_states_display_rule_where_the_idiom_fails(
    registry: Registry, archetype_id: str
) -> None:
    spec = registry.get(archetype_id)
    if not spec.solvable:
        pytest.skip("limitation archetypes have no answer text")
    for i in range(SEEDS):
        task = build_task(archetype_id, seed_for("train", i), "train", registry)
        wanted = {" ".join(s.split()) for s in _strings(task.truth) if len(s.strip()) >= 2}
        found = _idiom_differs(task.html, wanted) if wanted else None
        if found is not None:
            assert DISPLAYED in task.answer_schema, (
                f"seed {i}: get_text(' ', strip=True) misreads {found!r}; say "
                "queries.DISPLAYED in the answer schema"
            )
            return
