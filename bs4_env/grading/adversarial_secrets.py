"""Adversarial replies made of a task's secrets cut short: the secret search's worst inputs.

Part of the grader's fuzz corpus (``adversarial``). A reply full of near misses (every
prefix or suffix of every form of a secret, each kept short of whole by a gap, plain or
inside nested base64 and zlib, and each of those again with an escape every 40 characters,
so that it is also searched and decoded as written) makes the search examine every form and
try every way of spelling it in pieces; ``scripts/bench_grading.py`` times them against the
30 ms target (they took 100+ ms before the search was bounded, ``skeleton.MAX_PROBES``).
Each ends with a wrong answer, so none is right; a reply of prefixes and suffixes together
does spell the secret in two pieces and is caught.
"""

from __future__ import annotations

import base64
import json
import zlib

from bs4_env.grading.answer import MAX_FINAL_CHARS
from bs4_env.grading.secret_decoders import MAX_HIDDEN_CHARS
from bs4_env.grading.secret_forms import secret_forms
from bs4_env.grading.skeleton import MIN_PIECE, skeleton
from bs4_env.tasks.model import Task

UNDER = MAX_FINAL_CHARS - 100

_GAP_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
BUDGET_FILL = MAX_HIDDEN_CHARS * 2 // 5
ESCAPE_EVERY = 40
"""Characters between the escapes of an escaped near-miss reply: every run holds one."""


def _gap(beside: str, missing: str) -> str:
    """What stands beside a near miss: one letter or digit that neither completes the form
    (a reply's skeleton drops separators, so a bare space would join two near misses) nor
    repeats the character next to it (a skeleton collapses runs)."""
    return f" {next(c for c in _GAP_CHARS if c not in (missing, beside[-1:]))} "


def near_misses(secret: str, *, suffixes: bool = False) -> list[str]:
    """Every prefix (or suffix) of every form of ``secret``, half its length and longer but
    short of whole, each with a gap that keeps it short: what a search for the secret's
    forms reads furthest before it fails. A cut that still holds another form whole is
    left out (a form's prefix can hold another: UTF-16 in hex is UTF-8 in hex with zeros)."""
    forms = [form for form in secret_forms(secret) if not form.lite]
    misses: list[str] = []
    for form in forms:
        needle = form.needle
        for size in range(len(needle) - 1, len(needle) // 2 - 1, -1):
            if suffixes:
                cut, missing = needle[-size:], needle[-size - 1]
                miss = _gap(cut[:1], missing)[::-1] + cut
            else:
                cut, missing = needle[:size], needle[size]
                miss = cut + _gap(cut, missing)
            if not any(other.needle in skeleton(miss) for other in forms):
                misses.append(miss)
    return misses


def _fill(parts: list[str], room: int) -> str:
    """``parts`` in order, cycled, as many as fit in ``room`` characters."""
    chosen: list[str] = []
    size = 0
    while parts and size < room:
        for part in parts:
            if size + len(part) > room:
                return "".join(chosen)
            chosen.append(part)
            size += len(part)
    return "".join(chosen)


def _layers(text: str, layers: int) -> str:
    """``text`` compressed with zlib, then base64-encoded ``layers`` times."""
    data = zlib.compress(text.encode("utf-8"))
    for _ in range(layers):
        data = base64.b64encode(data)
    return data.decode("ascii")


def near_miss_replies(task: Task) -> dict[str, str]:
    """Replies made of the secrets' own forms cut short, plain and under nested encodings:
    the secret search's slowest inputs (each encoded blob once, padded with plain near
    misses to the size cap), ending with a wrong answer: name -> reply."""
    tail = "\n" + json.dumps({"status": "ok", "answer": "not the answer"})
    replies: dict[str, str] = {}
    for index, secret in enumerate(task.secrets):
        misses = near_misses(secret)
        if not misses:
            continue
        room = UNDER - len(tail)
        # The secret cut short by one letter or digit, then by more: near misses of its
        # spelled-out form, which an inner layer holds and the outer layers hide.
        cuts = [
            secret[:end] + _gap(secret[:end], secret[end])
            for end in range(len(secret) - 1, len(secret) // 2 - 1, -1)
            # Only where the cut drops a letter or digit that its skeleton keeps.
            if secret[end].isalnum() and secret[end].casefold() != secret[end - 1].casefold()
        ]
        both = [
            m
            for pair in zip(misses, near_misses(secret, suffixes=True), strict=False)
            for m in pair
        ]
        # Prefixes, and each form's last few characters: no piece search is ruled out early.
        ends = [
            m
            for form in secret_forms(secret)
            if not form.lite
            for m in (_gap("", form.needle[-MIN_PIECE - 1])[::-1] + form.needle[-MIN_PIECE:],)
        ]
        for name, parts in (("both-ends", both), ("prefixes-and-ends", misses + ends)):
            text = _fill(parts, UNDER - len(tail)) + tail
            replies[f"secret-{index}-near-miss-{name}"] = text
        blobs = {
            "plain": "",
            "b64-zlib": _layers(_fill(cuts, 4_000), 1),
            "b64-b64-zlib": _layers(_fill(cuts, 4_000), 2),
            "b64-b64-zlib-prefixes": _layers(_fill(misses, 12_000), 2),
            "hex-b64-zlib-prefixes": _layers(_fill(misses, 6_000), 1).encode().hex(),
            # As much hidden text as the decoders' budget keeps (``MAX_HIDDEN_CHARS`` counts
            # both the inflated bytes and the text kept from them): the slowest reply.
            "b64-zlib-budget": _layers(_fill(misses, BUDGET_FILL), 1),
        }
        for name, blob in blobs.items():
            text = blob + " " + _fill(misses, room - len(blob) - 1) + tail
            replies[f"secret-{index}-near-miss-{name}"] = text
            # Escapes throughout: the reply is also searched and decoded as written.
            for mark, escape in (("percent", "%2C"), ("backslash", "\\\\")):
                escaped = _escaped(text[: -len(tail)], escape, UNDER - len(tail)) + tail
                replies[f"secret-{index}-near-miss-{name}-{mark}-escaped"] = escaped
    return replies


def _escaped(text: str, escape: str, room: int) -> str:
    """``text`` with ``escape`` after every ``ESCAPE_EVERY`` characters, cut to ``room``."""
    cut = range(0, len(text), ESCAPE_EVERY)
    return escape.join(text[at : at + ESCAPE_EVERY] for at in cut)[:room]
