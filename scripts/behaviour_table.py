"""A markdown table of models' behaviour on eval documents, beside the reward.

For each ``bs4-env eval`` document (for example a learning run's ``eval-sft/trained-greedy.json``
and ``eval-ei/trained-greedy.json``): the mean reward with its 95% interval, and the row measures
of ``bs4_lab.real_measures`` as k/n with Wilson intervals: tool use, first programs that ran,
solvable rows answered, solvable rows abstained on, rows with no final answer, and rows that
replied with a final answer after a budget refusal. With ``--first-replies N``, a second table
gives each document's N most common kinds of first tool reply: ran, the exception a failed
program raised, or why the engine refused the call. It reads the documents only, so it
describes any run after the fact (an exploratory figure, not a registered endpoint). Needs the
lab.

    python scripts/behaviour_table.py [--first-replies N] [LABEL=]DOC.json [[LABEL=]DOC.json ...]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from bs4_lab.compare import CompareError, records_of
from bs4_lab.real_measures import behaviour

COLUMNS = (
    ("tool_use", "tool use"),
    ("first_program_ok", "first program ran"),
    ("answered", "answered (solvable)"),
    ("abstained_solvable", "abstained (solvable)"),
    ("no_final", "no final answer"),
    ("budget_heeded", "answered after a budget refusal"),
)


def load_records(path: Path) -> list[dict[str, Any]]:
    """The rollouts of an eval document; refuses anything else with a clear message."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: cannot read an eval document ({error})") from error
    if not isinstance(document, dict):
        raise ValueError(f"{path}: not a results document (a JSON object)")
    try:
        rollouts = records_of(document)
    except CompareError as error:
        raise ValueError(f"{path}: {error}") from error
    if not rollouts:
        raise ValueError(f"{path}: the rollouts list is empty")
    for index, record in enumerate(rollouts):
        if not isinstance(record, dict) or not isinstance(record.get("transcript"), list):
            raise ValueError(f"{path}: rollout {index} is not a record with a transcript list")
    return rollouts


def _share(figure: dict[str, Any] | None) -> str:
    if figure is None:
        return "-"
    interval = f"{figure['low']:.1%}-{figure['high']:.1%}"
    return f"{figure['k']}/{figure['n']} ({figure['rate']:.1%}, {interval})"


def table(documents: list[tuple[str, list[dict[str, Any]]]]) -> str:
    """One row per document (its label and rollouts)."""
    head = ["model", "n", "reward [95% CI]", *(title for _, title in COLUMNS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, records in documents:
        figures = behaviour(records)
        reward = figures["reward"]
        cells = [
            label,
            str(figures["n"]),
            f"{reward['mean']:.3f} [{reward['low']:.3f}, {reward['high']:.3f}]",
            *(_share(figures[key]) for key, _ in COLUMNS),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


EXCEPTION = re.compile(r"\b\w+(?:Error|Exception)\b")
REFUSED = re.compile(r"; (.*?)\. Nothing was executed")


def first_reply_kind(record: dict[str, Any]) -> str | None:
    """The kind of the episode's first tool reply (None: no tool was called)."""
    reply = next((m for m in record["transcript"] if m.get("role") == "tool"), None)
    if reply is None:
        return None
    text = str(reply.get("content") or "")
    if text.startswith("exit status: 0"):
        return "ran"
    if text.startswith("exit status:"):
        names = EXCEPTION.findall(text)
        return names[-1] if names else "failed (no exception named)"
    refused = REFUSED.search(text)
    return f"refused: {refused.group(1)}" if refused else text.split(";", 1)[0][:80]


def first_replies(documents: list[tuple[str, list[dict[str, Any]]]], top: int) -> str:
    """Per document, its ``top`` most common first-reply kinds with their row counts."""
    lines = ["| model | first tool reply | rows |", "|---|---|---|"]
    for label, records in documents:
        kinds = Counter(first_reply_kind(r) or "no tool call" for r in records)
        lines += [f"| {label} | {kind} | {count} |" for kind, count in kinds.most_common(top)]
    return "\n".join(lines)


def _document(argument: str) -> tuple[str, Path]:
    label, sep, path = argument.partition("=")
    if not sep:
        doc = Path(argument)
        return f"{doc.parent.name}/{doc.stem}", doc
    return label, Path(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("documents", nargs="+", help="[LABEL=]path of an eval document")
    parser.add_argument(
        "--first-replies",
        type=int,
        default=0,
        metavar="N",
        help="also the N commonest first tool replies",
    )
    args = parser.parse_args(argv)
    if args.first_replies < 0:
        parser.error("--first-replies must be 0 or more")
    try:
        documents = [(label, load_records(path)) for label, path in map(_document, args.documents)]
        print(table(documents))
        if args.first_replies:
            print()
            print(first_replies(documents, args.first_replies))
    except ValueError as error:
        print(f"behaviour_table: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
