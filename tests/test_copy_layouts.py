"""Copies draw their kinds as blockers stand on each layout (issue 39, item 1).

``copy_layouts.BLOCKED_TEMPLATES`` restates which request templates each limitation
archetype puts its blocking element on; these tests hold it to the archetypes themselves:
to the ``TEMPLATES`` an archetype module draws from, and to where the blocker of every
limitation archetype actually stands (in or beside a frame with its layout's mark).
"""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest
from lxml import etree

from bs4_env.checks.leak_elements import PARSER
from bs4_env.grading.page_identifiers import blocker_elements
from bs4_env.tasks.html.copy_layouts import BLOCKED_TEMPLATES, TEMPLATE_MARKS, layout_kinds
from bs4_env.tasks.model import LimitReason
from bs4_env.tasks.registry import Registry, build_task, default_registry
from bs4_env.tasks.splits import seed_for

SEEDS = 12
LIMITATION_IDS = [spec.id for spec in default_registry() if spec.category == "limitation"]


def _kind(archetype_id: str, registry: Registry) -> LimitReason:
    task = build_task(archetype_id, seed_for("train", 0), "train", registry)
    if task.limitation is None:
        raise AssertionError(f"{archetype_id} built a solvable page")
    return task.limitation.reasons[0]


def test_every_kind_has_templates_with_marks(registry: Registry) -> None:
    kinds = {_kind(archetype_id, registry) for archetype_id in LIMITATION_IDS}
    assert kinds == set(BLOCKED_TEMPLATES) == set(LimitReason)
    for templates in BLOCKED_TEMPLATES.values():
        assert templates and set(templates) <= set(TEMPLATE_MARKS), templates


def _module(archetype_id: str) -> ModuleType:
    return importlib.import_module(f"bs4_env.tasks.archetypes.limitation.{archetype_id}")


# The others take their templates from their page builder's module, which
# ``BLOCKED_TEMPLATES`` names itself (``canvas_slots.TEMPLATES``, ...).
OWN_TEMPLATES = [i for i in LIMITATION_IDS if hasattr(_module(i), "TEMPLATES")]


@pytest.mark.parametrize("archetype_id", OWN_TEMPLATES)
def test_blocked_templates_are_the_archetypes_own(archetype_id: str, registry: Registry) -> None:
    own = _module(archetype_id).TEMPLATES
    assert tuple(own) == BLOCKED_TEMPLATES[_kind(archetype_id, registry)]


def _marked(element: etree._Element, marks: set[str]) -> bool:
    """Whether ``element`` carries one of ``marks`` (``class="..."``), or the element right
    after it does (a recording's article is followed by its "More" section)."""
    after = next((s for s in element.itersiblings() if isinstance(s.tag, str)), None)
    nodes = [element] if after is None else [element, after]
    return any(f'class="{node.get("class", "")}"' in marks for node in nodes)


@pytest.mark.parametrize("archetype_id", LIMITATION_IDS)
def test_every_blocker_stands_on_a_layout_of_its_kind(
    archetype_id: str, registry: Registry
) -> None:
    """The blocker's frame (an ancestor) carries, or stands beside, the mark of one of the
    templates ``BLOCKED_TEMPLATES`` lists for its kind; so ``layout_kinds`` of the page's
    main region gives its kind a weight."""
    for i in range(SEEDS):
        task = build_task(archetype_id, seed_for("train", i), "train", registry)
        if task.limitation is None:
            continue
        kind = task.limitation.reasons[0]
        marks = {TEMPLATE_MARKS[template] for template in BLOCKED_TEMPLATES[kind]}
        root = etree.fromstring(task.html.encode("utf-8"), PARSER)
        blocker = blocker_elements(root, task.limitation.evidence_tokens)
        assert blocker, (archetype_id, i)
        assert any(
            _marked(ancestor, marks) for element in blocker for ancestor in element.iterancestors()
        ), (archetype_id, i, sorted(marks))


def test_layout_kinds_weigh_each_kind_by_its_share_of_templates() -> None:
    price = layout_kinds('<article><div class="price-box">x</div></article>')
    assert price == {
        LimitReason.CANVAS_TEXT: 1 / 2,
        LimitReason.FONT_OBFUSCATION: 1 / 2,
        LimitReason.LOGIN_REQUIRED: 1 / 2,
        LimitReason.BOT_WALL: 1 / 4,
        LimitReason.JS_RENDERED: 1 / 3,
    }
    # Both table templates show a table block: a kind on both counts both.
    assert layout_kinds('<section class="table-block"></section>')[LimitReason.PDF_EMBED] == 1.0
    assert layout_kinds('<section class="more-media"></section>') == {LimitReason.MEDIA_ONLY: 1.0}
    assert layout_kinds("<main><p>An article.</p></main>") == {}
