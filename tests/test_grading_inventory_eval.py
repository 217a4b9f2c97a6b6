"""The inventory policy scores 0 through ``evaluate``; the reference keeps 0.5 (issue 7 C).

The inventory policy plays the archetype's reference program (so it knows the right reason
and the right evidence), then runs BeautifulSoup code that lists every id, src, href and
data-* value of the page, and cites the right evidence followed by that inventory, cut to
the evidence cap. Same runner, sandbox and grader as ``bs4-env eval``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bs4_env.episode.tool_text import stdout_of
from bs4_env.evaluation.runner import evaluate
from bs4_env.evaluation.scripted import ReferencePolicy
from bs4_env.evaluation.turns import AssistantTurn, Message, Policy, ToolCall
from bs4_env.grading.evidence import MAX_EVIDENCE_CHARS
from bs4_env.grading.rubric import REWARD_ABSTAIN
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import Registry
from bs4_env.tasks.splits import Row, seed_for

SEEDS = 2
INVENTORY_PROGRAM = """
import json
values = []
for tag in make_soup().find_all(True):
    for name, value in tag.attrs.items():
        if name in ("id", "src", "href") or name.startswith("data-"):
            value = " ".join(value) if isinstance(value, list) else value
            if value.strip() and value not in values:
                values.append(value)
print(json.dumps(values))
"""


class InventoryPolicy:
    """The reference's abstention, with every identifier of the page appended as evidence."""

    def __init__(self, reference: Policy) -> None:
        self._reference = reference
        self._limit: dict[str, Any] | None = None

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn:
        if self._limit is not None:
            values = json.loads(stdout_of(str(messages[-1]["content"])))
            evidence = str(self._limit["evidence"])
            for value in values:
                if len(evidence) + 1 + len(value) <= MAX_EVIDENCE_CHARS:
                    evidence += " " + value
            limit = {"reason": self._limit["reason"], "evidence": evidence}
            return AssistantTurn(content=json.dumps({"status": "limit", "limit": limit}))
        turn = await self._reference.next_turn(messages, tools)
        final = json.loads(turn.content) if turn.content and not turn.tool_calls else None
        if not (isinstance(final, dict) and final.get("status") == "limit"):
            return turn
        self._limit = final["limit"]
        arguments = json.dumps({"code": INVENTORY_PROGRAM})
        return AssistantTurn(
            tool_calls=(ToolCall(f"call_{len(messages)}", "run_python", arguments),)
        )


def _rows(registry: Registry) -> list[Row]:
    return [
        Row(spec.id, seed_for("eval", index), "eval")
        for spec in registry
        if not spec.solvable
        for index in range(SEEDS)
    ]


async def test_inventory_policy_scores_zero_through_evaluate(
    registry: Registry, executor: Executor, tmp_path: Path
) -> None:
    rows = _rows(registry)
    assert len({row.archetype_id for row in rows}) >= 10

    def reference(task: Task) -> Policy:
        program = registry.reference_solution(task.archetype_id)
        return ReferencePolicy(lambda _messages: program)

    def inventory(task: Task) -> Policy:
        return InventoryPolicy(reference(task))

    results = {}
    for name, policy_for in (("reference", reference), ("inventory", inventory)):
        output = tmp_path / f"{name}.json"
        results[name] = await evaluate(rows, policy_for, executor, output, {}, progress=False)
    assert results["reference"]["errors"] == 0 and results["inventory"]["errors"] == 0
    for record in results["reference"]["rollouts"]:
        assert record["reward"] == REWARD_ABSTAIN, (record["archetype"], record["explanation"])
    for record in results["inventory"]["rollouts"]:
        where = (record["archetype"], record["seed"], record["final"], record["explanation"])
        assert record["components"]["reason_ok"] == 1.0, where
        assert record["reward"] == 0.0 and "other page element" in record["explanation"], where
