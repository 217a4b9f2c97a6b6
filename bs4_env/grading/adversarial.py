"""Adversarial final messages for one task: the grader's fuzz corpus.

Shared by ``tests/test_grading_fuzz.py`` (nothing raises, nothing scores above 0 unless it is
a right answer) and ``scripts/bench_grading.py`` (the worst grading time over the corpus).
Each reply says whether it is right under the reply-format rule, so the test can tell a
correct score from a hole. The inventory builders are the "cite everything" policies that
the evidence rule must defeat.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass

from bs4_env.grading.adversarial_secrets import near_miss_replies
from bs4_env.grading.answer import MAX_FINAL_CHARS
from bs4_env.grading.evidence import MAX_EVIDENCE_CHARS
from bs4_env.tasks.model import JSONValue, LimitReason, Task

_TAG = re.compile(r"<[a-zA-Z][^<>]*>")
_IDENTIFIER_ATTR = re.compile(r"""\b(?:id|src|href|data-[\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_SIGNATURE_TAG = re.compile(r"<(?:canvas|iframe|embed|object|video|audio|img|form)\b[^<>]*>")
_SIGNATURE_ID = re.compile(r"""\b(?:id|src|data)\s*=\s*"([^"]+)\"""")
MEGABYTE = 1_000_000
UNDER = MAX_FINAL_CHARS - 100
"""A length just under the size cap: such replies are scanned and decoded in full."""


@dataclass(frozen=True)
class Reply:
    """One adversarial final message; ``right`` when the rule says it is a right answer."""

    name: str
    text: str
    right: bool = False


def blocking_tag(task: Task) -> str | None:
    """The first opening tag in the page that carries one of the task's evidence tokens."""
    if task.limitation is None:
        return None
    for match in _TAG.finditer(task.html):
        tag = match.group()
        if any(token in tag for token in task.limitation.evidence_tokens):
            return tag[:MAX_EVIDENCE_CHARS]
    return None


def _fit(values: list[str], must: list[str]) -> str:
    """``must`` plus as many ``values`` (in order) as fit under the evidence cap."""
    chosen = list(must)
    size = sum(len(v) + 1 for v in chosen)
    for value in values:
        if value in chosen or size + len(value) + 1 > MAX_EVIDENCE_CHARS:
            continue
        chosen.append(value)
        size += len(value) + 1
    return " ".join(chosen)


def inventory_evidence(task: Task) -> str | None:
    """Every id/src/href/data-* value of the page, deduplicated, cut to the evidence cap.

    The values that carry an evidence token always go in, so the inventory "contains" the
    answer; the rest are the page's other identifiers in document order.
    """
    if task.limitation is None:
        return None
    found = [a or b for a, b in _IDENTIFIER_ATTR.findall(task.html)]
    values = list(dict.fromkeys(v.strip() for v in found if v.strip()))
    tokens = task.limitation.evidence_tokens
    must = [v for v in values if any(t in v for t in tokens)][:2]
    return _fit(values, must) if must else None


def signature_inventory_evidence(task: Task) -> str | None:
    """The ids and sources of every canvas, iframe, embed, image, media and form element."""
    if task.limitation is None:
        return None
    values: list[str] = []
    for tag in _SIGNATURE_TAG.findall(task.html):
        values.extend(_SIGNATURE_ID.findall(tag))
    values = list(dict.fromkeys(values))
    tokens = task.limitation.evidence_tokens
    must = [v for v in values if any(t in v for t in tokens)][:2]
    others = [v for v in values if v not in must]
    return _fit(others, must) if must and others else None


def _dump(value: JSONValue) -> str:
    return json.dumps(value, ensure_ascii=False)


def _ok(answer: JSONValue) -> str:
    return _dump({"status": "ok", "answer": answer})


def _limit(reason: JSONValue, evidence: JSONValue) -> str:
    return _dump({"status": "limit", "limit": {"reason": reason, "evidence": evidence}})


def _format_attacks() -> list[Reply]:
    """Replies that are never right, whatever the task."""
    every_reason = [reason.value for reason in LimitReason]
    raw = {
        "empty": "",
        "whitespace": " \n\t ",
        "null": "null",
        "array": "[]",
        "empty-object": "{}",
        "bare-ok": '"ok"',
        "status-only": '{"status": "ok"}',
        "limit-without-limit": '{"status": "limit"}',
        "single-quoted": "{'status': 'ok', 'answer': 1}",
        "trailing-comma": '{"status": "ok", "answer": 1,}',
        "comment": '{"status": "ok", /* x */ "answer": 1}',
        "unclosed": '{"status": "ok", "answer": [1, 2',
        "wrapped": '{"final": {"status": "ok", "answer": 1}}',
        "in-array": '[{"status": "ok", "answer": 1}]',
        "nan": '{"status": "ok", "answer": NaN}',
        "infinity": '{"status": "ok", "answer": Infinity}',
        "minus-infinity": '{"status": "ok", "answer": -Infinity}',
        "float-overflow": '{"status": "ok", "answer": 1e999}',
        "int-5000-digits": '{"status": "ok", "answer": ' + "9" * 5000 + "}",
        "int-400-digits": '{"status": "ok", "answer": -' + "7" * 400 + "}",
        "dup-status": '{"status": "limit", "status": "ok", "answer": 1}',
        "dup-answer": '{"status": "ok", "answer": 1, "answer": 2}',
        "cyrillic-ok": '{"status": "оk", "answer": 1}',
        "fullwidth-ok": '{"status": "ｏｋ", "answer": 1}',
        "upper-ok": '{"status": "OK", "answer": 1}',
        "zero-width-ok": '{"status": "o\u200bk", "answer": 1}',
        "padded-ok": '{"status": " ok", "answer": 1}',
        "cyrillic-limit": _limit("js_rendered", "x").replace('"limit"', '"lіmit"', 1),
        "dotless-limit": _limit("js_rendered", "x").replace('"limit"', '"lımit"', 1),
        "reason-list": _limit(every_reason, "x"),
        "reason-joined": _limit("|".join(every_reason), "x"),
        "evidence-list": _limit("js_rendered", ["a", "b"]),
        "lone-surrogate": '{"status": "ok", "answer": "\\ud800"}',
        "nul-bytes": '{"status": "ok", "answer": "\x00\x00"}',
        "rtl-override": '{"status": "ok", "answer": "\u202e1"}',
        "braces-64k": "{" * 64_000,
        "braces-200k": "{" * 200_000,
        "brackets-1mb": "[" * MEGABYTE,
        "closers-1mb": "}" * MEGABYTE,
        "fences-900kb": "```json\n{\n```\n" * (900_000 // 14),
        "quotes-30k": '"' * 30_000,
        # The rest stay under the size cap, so the scanner and the decoders see them whole.
        "quotes": '"' * UNDER,
        "escaped-quotes": '{"' + '\\"' * (UNDER // 2),
        "braces": "{" * UNDER,
        "closers": "}" * UNDER,
        "fences": "```json\n{\n```\n" * (UNDER // 14),
        "pairs-31-deep-then-answer": ("[" * 31 + "]" * 31) * (UNDER // 70) + _ok(1),
        "pairs-4-deep": "[[[[]]]]" * (UNDER // 8),
        "deep-prefix-object": "{" * 1000 + _ok(1),
        "deep-prefix-array": "[" * 1000 + _ok(1),
        "deep-answer": '{"status": "ok", "answer": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "deep-objects": '{"status": "ok", "answer": ' + '{"a":' * 2500 + "1" + "}" * 2500 + "}",
        "tiny-objects": '{"a": 1}' * (UNDER // 8),
        "escaped-objects": '{"\\n": 1}' * (UNDER // 9),
        "empty-objects": "{}" * (UNDER // 2),
        "entity-storm-1mb": "&#65;" * (MEGABYTE // 5),
        "entity-storm": "&#65;x" * (MAX_FINAL_CHARS // 6 - 10),
        "percent-storm": "%41x" * (MAX_FINAL_CHARS // 4 - 10),
        "unicode-escape-storm": "\\u0041" * (MAX_FINAL_CHARS // 6 - 10),
        "zero-width-storm": "a\u200b" * (MAX_FINAL_CHARS // 2 - 10),
        "combining-storm": "a" + "\u0301" * (MAX_FINAL_CHARS - 10),
        "base64-run": base64.b64encode(bytes(range(256)) * 90).decode()[: MAX_FINAL_CHARS - 10],
        "mixed-storm": "&#65;%41\\u0041\u200b" * (MAX_FINAL_CHARS // 19 - 10),
        "huge-string-1mb": "a" * MEGABYTE,
        "huge-answer-string": _ok("a" * MEGABYTE),
        "answer-under-cap": _ok("b" * (MAX_FINAL_CHARS - 100)),
    }
    return [Reply(name, text) for name, text in raw.items()]


def _task_attacks(task: Task) -> list[Reply]:
    """Replies built around this task's truth, page and limitation."""
    replies: list[Reply] = []
    page = task.html
    reason = task.limitation.reasons[0].value if task.limitation else "js_rendered"
    evidence = blocking_tag(task)
    replies += [
        Reply("evidence-whole-page", _limit(reason, page)),
        Reply("evidence-page-prefix", _limit(reason, page[:MAX_EVIDENCE_CHARS])),
        Reply("evidence-lt", _limit(reason, "<")),
        Reply("page-as-reply", page),
    ]
    for name, build in (
        ("inventory", inventory_evidence),
        ("signatures", signature_inventory_evidence),
    ):
        cited = build(task)
        if cited is not None:
            replies.append(Reply(f"evidence-{name}", _limit(reason, cited)))
    if task.solvable:
        right = _ok(task.truth)
        wrong = _ok("not the answer")
        replies += [
            Reply("right", right, right=True),
            Reply("right-fenced", f"```json\n{right}\n```", right=True),
            Reply("right-with-prose", f"Here it is: {right}\nHope that helps.", right=True),
            Reply("right-repeated", f"{right}\n\n```json\n{right}\n```", right=True),
            Reply("right-then-wrong", f"{right}\n{wrong}"),
            Reply("wrong-then-right", f"{wrong}\n{right}"),
            Reply("right-and-abstain", f"{right}\n{_limit(reason, evidence or 'x')}"),
            Reply("right-over-cap", " " * MAX_FINAL_CHARS + right),
            Reply("truth-as-string", _ok(_dump(task.truth))),
            Reply("truth-among-guesses", _ok([task.truth, "x", "y"])),
            Reply("truth-in-prose", f"The answer is {_dump(task.truth)}."),
            Reply("abstain-on-solvable", _limit(reason, evidence or "script")),
        ]
    elif evidence is not None:
        right = _limit(reason, evidence)
        replies += [
            Reply("abstain-right", right, right=True),
            Reply("abstain-right-fenced", f"```json\n{right}\n```", right=True),
            Reply("abstain-and-answer", f"{right}\n{_ok(None)}"),
            Reply(
                "abstain-wrong-reason",
                _limit("image_text" if reason != "image_text" else "pdf_embed", evidence),
            ),
            Reply("answer-limitation", _ok([])),
            Reply("abstain-over-cap", right + " " * MAX_FINAL_CHARS),
        ]
    for index, secret in enumerate(task.secrets):
        encoded = "".join(f"\\u{ord(c):04x}" for c in secret)
        replies.append(
            Reply(f"secret-{index}-escaped", _ok(task.truth)[:-1] + f', "x": "{encoded}"}}')
        )
        replies.append(Reply(f"secret-{index}-reversed", f"{secret[::-1]} {_ok(task.truth)}"))
    return replies


def adversarial_replies(task: Task) -> list[Reply]:
    """The whole corpus for ``task``: format attacks, attacks built on the task, and near
    misses of its secrets (``adversarial_secrets``)."""
    return [
        *_format_attacks(),
        *_task_attacks(task),
        *(Reply(name, text) for name, text in near_miss_replies(task).items()),
    ]
