"""Evidence locates one element, not an inventory of the page (issue 7 C).

Property tests over every limitation archetype of the registry: new limitation kinds are
covered as soon as they are registered.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import pytest

from bs4_env.grading.adversarial import (
    blocking_tag,
    inventory_evidence,
    signature_inventory_evidence,
)
from bs4_env.grading.evidence import MAX_EVIDENCE_CHARS
from bs4_env.grading.rubric import REWARD_ABSTAIN, Score, ToolUsage, grade
from bs4_env.tasks.model import Task
from bs4_env.tasks.modes import SERVED_SEEDS
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for
from tests import evidence_many_seeds
from tests.evidence_many_seeds import GROUP, SPLITS

RAN = ToolUsage(tool_calls=1, soup_runs=1)
SEEDS = 20
_WORD_ID = re.compile(r'\bid="([a-z]{4,})"')
_OTHER_LEAF = re.compile(r'<(?:img|a)\b[^<>]*?\b(?:src|href)="([^"]*\d[^"]*)"')


def _abstain(task: Task, evidence: str) -> str:
    assert task.limitation is not None
    reason = task.limitation.reasons[0].value
    return json.dumps({"status": "limit", "limit": {"reason": reason, "evidence": evidence}})


def _limitation_tasks(registry: Registry, seeds: int, split: str = "train") -> list[Task]:
    return [
        build_task(spec.id, seed_for(split, index), split, registry)
        for spec in registry
        if not spec.solvable
        for index in range(seeds)
    ]


def _evidence_kinds(task: Task) -> dict[str, list[str]]:
    """Evidence of each kind this file grades, for one task (empty where it does not apply)."""
    assert task.limitation is not None
    tokens = task.limitation.evidence_tokens
    tag = blocking_tag(task)
    assert tag is not None, f"{task.archetype_id}: no tag carries an evidence token"
    inventories = [e for e in (inventory_evidence(task), signature_inventory_evidence(task)) if e]
    others = [
        value
        for value in _OTHER_LEAF.findall(task.html)
        if not any(t in value for t in tokens) and value not in task.start_url
    ]
    words = _WORD_ID.findall(task.html)
    return {
        "inventory": inventories,
        "natural": [tag, f"The data is not in the static HTML: {tag} is what the page shows."],
        "one-other": [f"{tag[:400]} (or maybe {others[0]})"] if others else [],
        "plain-words": (
            [f"In the {' and '.join(words[:3])} part of the page, {tag[:300]} blocks extraction"]
            if words
            else []
        ),
    }


@dataclass(frozen=True)
class Graded:
    task: Task
    kind: str
    evidence: str
    score: Score

    @property
    def where(self) -> tuple[str, int, str, str]:
        return (self.task.archetype_id, self.task.seed, self.evidence, self.score.explanation)


@pytest.fixture(scope="module")
def graded(registry: Registry) -> list[Graded]:
    """Every evidence kind graded on ``SEEDS`` seeds of every limitation archetype.

    The kinds of one task are graded one after another, so its page index is built once.
    """
    tasks = _limitation_tasks(registry, SEEDS)
    assert len({task.archetype_id for task in tasks}) >= 4
    return [
        Graded(task, kind, evidence, grade(task, _abstain(task, evidence), RAN))
        for task in tasks
        for kind, evidences in _evidence_kinds(task).items()
        for evidence in evidences
    ]


def _of(graded: list[Graded], kind: str) -> list[Graded]:
    found = [item for item in graded if item.kind == kind]
    assert len(found) >= SEEDS, f"too few {kind} cases: {len(found)}"
    return found


def test_inventory_policy_scores_zero(graded: list[Graded]) -> None:
    """Every id/src/href/data value of the page, under the cap, token included: 0."""
    for item in _of(graded, "inventory"):
        assert item.task.limitation is not None
        assert len(item.evidence) <= MAX_EVIDENCE_CHARS
        assert any(token in item.evidence for token in item.task.limitation.evidence_tokens)
        assert item.score.reward == 0.0, item.where
        assert item.score.components["reason_ok"] == 1.0
        assert "other page element" in item.score.explanation, item.where


def test_natural_evidence_passes(graded: list[Graded]) -> None:
    """The blocking tag as it is in the page, or prose naming it, scores 0.5."""
    for item in _of(graded, "natural"):
        assert item.score.reward == REWARD_ABSTAIN, item.where


def test_naming_one_other_element_scores_zero(graded: list[Graded]) -> None:
    for item in _of(graded, "one-other"):
        assert item.score.reward == 0.0, item.where


def test_plain_word_ids_do_not_trip_prose(graded: list[Graded]) -> None:
    """An id such as ``content`` is an English word: prose using it is not an inventory."""
    for item in _of(graded, "plain-words"):
        assert item.score.reward == REWARD_ABSTAIN, item.where


def test_mount_and_endpoint_in_prose_pass(registry: Registry) -> None:
    for index in range(SEEDS):
        task = build_task("js_rendered", seed_for("eval", index), "eval", registry)
        assert task.limitation is not None
        mounts = re.findall(r'<(\w+) id="([^"]+)"[^>]*data-endpoint="([^"]+)"', task.html)
        name, ident, endpoint = next(m for m in mounts if m[1] in task.limitation.evidence_tokens)
        evidence = f"the data in {name}#{ident} is filled from {endpoint} by a script"
        assert grade(task, _abstain(task, evidence), RAN).reward == REWARD_ABSTAIN, evidence


def _inventory_policy(task: Task) -> tuple[str | None, float | None]:
    """The inventory policy's evidence for ``task`` and its reward (``None`` without one)."""
    evidence = inventory_evidence(task)
    if evidence is None:
        return None, None
    return evidence, grade(task, _abstain(task, evidence), RAN).reward


# 100 seeds of train and eval, every bench row (20 an archetype: a later bench seed is in no
# dataset).
MANY_SEEDS = {split: min(100, SERVED_SEEDS[split]) for split in SPLITS}
evidence_many_seeds.register("inventory", MANY_SEEDS, _inventory_policy)


@pytest.mark.slow
@pytest.mark.xdist_group(GROUP)
def test_inventory_policy_scores_zero_on_many_seeds(registry: Registry) -> None:
    """The inventory policy on 100 seeds of train and eval and on every bench row of every
    limitation archetype.

    Graded in the walk it shares with the other evidence tests (``evidence_many_seeds``):
    the same tasks, policy and grades as a walk of its own, each task generated and indexed
    once for all of them.
    """
    checked = evidence_many_seeds.results("inventory")
    archetypes = sum(1 for spec in registry if not spec.solvable)
    assert len(checked) == sum(MANY_SEEDS.values()) * archetypes
    for task, (evidence, reward) in checked:
        assert evidence is not None, (task.archetype_id, task.seed)
        assert reward == 0.0, (task.archetype_id, task.seed, evidence)
