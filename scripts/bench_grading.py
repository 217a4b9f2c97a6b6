"""Grading-time benchmark: the worst time over the adversarial corpus and over big replies.

Prints figures only (no pass/fail). For each task (a few solvable archetypes, one with
secrets, and every limitation archetype) every reply of ``bs4_env.grading.adversarial`` is
graded ``--repeat`` times with a cold evidence cache (the page index is rebuilt each time,
as for the first grade of a task) and the median CPU time of this process is kept (other
processes on a busy machine do not inflate it; the wall time of the whole run is printed);
then replies of 1 KB to 1 MB of several kinds are graded on the task with secrets. The
baseline, measured in the same run, is the median time to grade a plain right answer.
Target: worst <= 30 ms.
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import time

from bs4_env.grading.adversarial import adversarial_replies
from bs4_env.grading.answer import MAX_FINAL_CHARS
from bs4_env.grading.canonical import canonical
from bs4_env.grading.page_identifiers import page_identifiers
from bs4_env.grading.rubric import ToolUsage, grade
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import build_task, default_registry

RAN = ToolUsage(tool_calls=1, soup_runs=1)
SOLVABLE = ("text_by_id", "table_dicts_by_header", "login_form_secret", "all_links")
# MAX_FINAL_CHARS: the largest reply that is parsed and decoded in full.
SIZES = (1_000, 10_000, MAX_FINAL_CHARS, 100_000, 1_000_000)
TARGET_MS = 30.0


def _time_ms(task: Task, text: str, repeat: int) -> float:
    """Median CPU time of ``repeat`` cold grades (CPU time: other processes do not count)."""
    samples = []
    for _ in range(repeat):
        page_identifiers.cache_clear()
        start = time.process_time()
        grade(task, text, RAN)
        samples.append(1000 * (time.process_time() - start))
    return statistics.median(samples)


def _big_replies(task: Task, size: int) -> dict[str, str]:
    answer = json.dumps({"status": "ok", "answer": task.truth})
    secret = task.secrets[0] if task.secrets else "s3cret-value"
    kinds = {
        "prose": "word " * (size // 5),
        "braces": "{" * size,
        "objects": '{"a": 1}' * (size // 8),
        "entities": "&#65;" * (size // 5),
        "percent": "%41x" * (size // 4),
        "escapes": "\\u0041" * (size // 6),
        "zero-width": "a\u200b" * (size // 2),
        "non-ascii": "é€中" * (size // 3),
        "base64": base64.b64encode(b"\x07" * (size * 3 // 4)).decode(),
        "answer-list": json.dumps({"status": "ok", "answer": ["x"] * (size // 5)}),
        "deep-then-answer": ("[" * 31 + "]" * 31) * (size // 62) + answer,
        "status-storm": '{"status": 1}' * (size // 13),
        "secret-at-end": "word " * (size // 5) + json.dumps(secret)[1:-1] + answer,
    }
    keep_whole = ("secret-at-end", "deep-then-answer")
    return {name: text if name in keep_whole else text[:size] for name, text in kinds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per reply (median kept)")
    parser.add_argument("--seed", type=int, default=100_000_003)
    args = parser.parse_args()
    begin, cpu = time.perf_counter(), time.process_time()
    registry = default_registry()
    ids = [*SOLVABLE, *(spec.id for spec in registry if not spec.solvable)]
    tasks = [build_task(archetype, args.seed, "eval", registry) for archetype in ids]

    start = time.perf_counter()
    canonical("warm-up é\u200b")  # builds the invisible-character table once per process
    print(f"one-time Unicode table build: {1000 * (time.perf_counter() - start):.0f} ms")
    baseline = statistics.median(
        _time_ms(task, json.dumps({"status": "ok", "answer": task.truth}), 5)
        for task in tasks
        if task.solvable
    )
    print(f"baseline (plain right answer, median): {baseline:.3f} ms")

    print(f"\n## Adversarial corpus ({len(tasks)} tasks, median of {args.repeat} cold runs)")
    print(f"{'archetype':24} {'replies':>7} {'worst ms':>9}  worst reply")
    overall: list[tuple[float, str]] = []
    for task in tasks:
        times = [(_time_ms(task, r.text, args.repeat), r.name) for r in adversarial_replies(task)]
        worst = max(times)
        overall.append((worst[0], f"{task.archetype_id}/{worst[1]}"))
        print(f"{task.archetype_id:24} {len(times):7d} {worst[0]:9.2f}  {worst[1]}")
    worst_corpus = max(overall)
    print(
        f"worst over the corpus: {worst_corpus[0]:.2f} ms ({worst_corpus[1]}), "
        f"{worst_corpus[0] / baseline:.0f}x baseline"
    )

    secret_task = next(task for task in tasks if task.secrets)
    print(f"\n## Replies up to 1 MB ({secret_task.archetype_id}, a task with secrets)")
    print(f"{'kind':14} " + " ".join(f"{size:>10,}" for size in SIZES) + "  (ms)")
    worst_big = (0.0, "")
    for kind in _big_replies(secret_task, 10):
        row = []
        for size in SIZES:
            ms = _time_ms(secret_task, _big_replies(secret_task, size)[kind], args.repeat)
            row.append(ms)
            worst_big = max(worst_big, (ms, f"{kind} {size:,} chars"))
        print(f"{kind:14} " + " ".join(f"{ms:10.2f}" for ms in row))
    print(
        f"worst up to 1 MB: {worst_big[0]:.2f} ms ({worst_big[1]}), "
        f"{worst_big[0] / baseline:.0f}x baseline"
    )
    worst_ms = max(worst_corpus[0], worst_big[0])
    verdict = "within" if worst_ms <= TARGET_MS else "OVER"
    print(f"\nworst grading time: {worst_ms:.2f} ms CPU ({verdict} the {TARGET_MS:.0f} ms target)")
    print(
        f"run wall time {time.perf_counter() - begin:.1f} s, CPU {time.process_time() - cpu:.1f} s"
    )


if __name__ == "__main__":
    main()
