"""Limitation archetypes and their solvable twins look alike everywhere but at the data.

Each limitation kind of this family (JS mount, PDF viewer, bot check, sign-in gate, feed
trigger) has a twin built by the same layout builder, asked with the same requests in the
same mix, carrying the same kind of element, and solved by the same reference program. A
prompt classifier and a page classifier (as in ``test_leaks``, restricted to one
limitation archetype and its twins) must not tell them apart better than chance plus a
margin.
"""

from __future__ import annotations

import pytest

from bs4_env.checks.leaks import SIGNATURES
from bs4_env.tasks.model import LimitReason
from bs4_env.tasks.registry import Registry
from tests.archetypes.twin_checks import (
    MARGIN,
    cached_tasks,
    check_reason_and_planned_mix,
    check_same_program,
    check_same_request_mix,
    twin_accuracy,
)

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


@pytest.mark.parametrize(("limitation", "twin"), PAIRS)
def test_twin_is_solved_by_the_same_program(limitation: str, twin: str, registry: Registry) -> None:
    check_same_program(limitation, twin, registry)


@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_limitation_produces_its_reason_with_planned_template_mix(
    limitation: str, registry: Registry
) -> None:
    check_reason_and_planned_mix(limitation, REASON[limitation], PLAN[limitation], registry)


@pytest.mark.parametrize(("limitation", "twin"), PAIRS)
def test_twin_asks_the_same_requests_in_the_same_mix(
    limitation: str, twin: str, registry: Registry
) -> None:
    check_same_request_mix(limitation, twin, registry)


@pytest.mark.parametrize(("limitation", "twin"), PAIRS)
def test_twin_always_carries_the_limitation_signature(
    limitation: str, twin: str, registry: Registry
) -> None:
    """A grep for the kind's signature finds it on every twin page too (abstaining on it is 0)."""
    patterns = [p for reason, p in SIGNATURES if reason is REASON[limitation]]
    for task in cached_tasks(twin, "train", 100, registry):
        assert any(p.search(task.html) for p in patterns), task.seed


@pytest.mark.slow
@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_prompt_does_not_tell_limitation_from_twin(limitation: str, registry: Registry) -> None:
    accuracy = twin_accuracy(limitation, TWINS[limitation], registry, "prompt")
    assert accuracy <= 0.5 + MARGIN, f"{limitation} vs {TWINS[limitation]}: {accuracy:.3f}"


@pytest.mark.slow
@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_page_tags_do_not_tell_limitation_from_twin(limitation: str, registry: Registry) -> None:
    accuracy = twin_accuracy(limitation, TWINS[limitation], registry, "page")
    assert accuracy <= 0.5 + MARGIN, f"{limitation} vs {TWINS[limitation]}: {accuracy:.3f}"
