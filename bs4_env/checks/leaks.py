"""Can solvability be read without doing the task? Features and policies for the leak audit.

Two shortcuts an RL policy would learn if they worked: reading solvability off the request
wording, and reading it off page signatures (a canvas, a fetch() script, an embedded PDF,
...). ``tests/test_leaks.py`` trains simple classifiers on the prompt and on the page's
surface (``leak_features``, ``leak_classifiers``) and plays the "abstain when a signature
is present" policy; this module holds what they share, so ``scripts/leak_audit.py`` prints
the same figures.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from bs4_env.episode.prompt import user_prompt
from bs4_env.grading.rubric import REWARD_ABSTAIN, REWARD_CORRECT, ToolUsage, grade
from bs4_env.tasks.model import LimitReason, Task

# What a shortcut-taker would grep a page for, with the reason it would then claim. The
# first eleven are the audit's own list (issue 7 E); the rest cover the newer kinds.
SIGNATURES: tuple[tuple[LimitReason, re.Pattern[str]], ...] = tuple(
    (reason, re.compile(pattern, re.IGNORECASE))
    for reason, pattern in (
        (LimitReason.CANVAS_TEXT, r"<canvas\b[^>]*>"),
        (LimitReason.CANVAS_TEXT, r"<script\b[^>]*>[^<]*getContext"),
        (LimitReason.PDF_EMBED, r"<(?:embed|object|iframe)\b[^>]*\.pdf[^>]*>"),
        (LimitReason.JS_RENDERED, r"<[a-z]+\b[^>]*data-endpoint=[^>]*>"),
        (LimitReason.JS_RENDERED, r"<[a-z]+\b[^>]*aria-busy=[^>]*>"),
        (LimitReason.JS_RENDERED, r"<script\b[^>]*>[^<]*fetch\("),
        (LimitReason.JS_RENDERED, r"<noscript\b[^>]*>"),
        (LimitReason.JS_RENDERED, r"<script\b[^>]*\bsrc=[^>]*>"),
        (LimitReason.IMAGE_TEXT, r"<img\b[^>]*/img/contact/[^>]*>"),
        (LimitReason.BOT_WALL, r"<[a-z]+\b[^>]*(?:challenge|turnstile|captcha)[^>]*>"),
        (LimitReason.LOGIN_REQUIRED, r"<(?:a|form)\b[^>]*(?:/login|/session|/signin)[^>]*>"),
        (LimitReason.INFINITE_SCROLL, r"<[a-z]+\b[^>]*data-(?:next|infinite)[^>]*>"),
        (LimitReason.FONT_OBFUSCATION, r"@font-face"),
        (LimitReason.MEDIA_ONLY, r"<(?:video|audio)\b[^>]*>"),
        (LimitReason.FORM_SUBMISSION, r"<form\b[^>]*method=\"?post[^>]*>"),
    )
)


def prompt_text(task: Task) -> str:
    """What a prompt classifier sees: the per-task message (the system prompt never varies)."""
    return user_prompt(task)


def signature_abstention(task: Task) -> str | None:
    """The abstention a signature-grepping policy would send, or ``None`` if no signature."""
    for reason, pattern in SIGNATURES:
        match = pattern.search(task.html)
        if match is not None:
            evidence = match.group(0)[:300]
            limit = {"reason": reason.value, "evidence": evidence}
            return json.dumps({"status": "limit", "limit": limit})
    return None


def reference_reward(task: Task) -> float:
    """What the reference policy scores (proven on every archetype by the solvability tests)."""
    return REWARD_CORRECT if task.solvable else REWARD_ABSTAIN


def signature_policy_reward(task: Task) -> float:
    """ "Abstain citing a signature element when one is present, else answer like the reference".

    The answering branch is credited with the reference's reward, which only flatters the
    policy; the abstaining branch is graded by the real grader after one successful call.
    """
    final = signature_abstention(task)
    if final is None:
        return reference_reward(task)
    return grade(task, final, ToolUsage(tool_calls=1, soup_runs=1)).reward


@dataclass(frozen=True)
class TemplateShare:
    template: str
    rows: int
    limitation_rows: int

    @property
    def limitation_share(self) -> float:
        return self.limitation_rows / self.rows


def template_shares(tasks: Iterable[Task]) -> list[TemplateShare]:
    """Per request template: how many rows, and how many of them are limitation rows."""
    rows: Counter[str] = Counter()
    limited: Counter[str] = Counter()
    for task in tasks:
        rows[task.query_template] += 1
        limited[task.query_template] += int(not task.solvable)
    return sorted(
        (TemplateShare(t, n, limited[t]) for t, n in rows.items()),
        key=lambda share: -share.limitation_share,
    )


def base_rate(labels: Iterable[bool]) -> float:
    """Accuracy of always predicting the majority class."""
    counts = Counter(labels)
    return max(counts.values()) / sum(counts.values())


def signature_count(html: str) -> int:
    """How many distinct signature patterns a page matches (for the audit's figures)."""
    return sum(1 for _, pattern in SIGNATURES if pattern.search(html))


__all__ = [
    "SIGNATURES",
    "TemplateShare",
    "base_rate",
    "prompt_text",
    "reference_reward",
    "signature_abstention",
    "signature_count",
    "signature_policy_reward",
    "template_shares",
]
