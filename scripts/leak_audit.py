"""Leak audit: can solvability be read from the prompt or the page without doing the task?

Prints figures only (no pass/fail; ``tests/test_leaks.py`` holds the same classifiers to the
base rate + 3 points). Classifiers train on train-split seeds of every archetype and are
scored on held-out eval-split seeds; each has a planted-leak control in the same run, which
shows what a leak would look like. Then the "abstain when a signature element is present"
policy against the reference policy on the bench, the element finder (can the blocker be
found among a page's candidate elements by their own surface?) against chance, the same
finder with context features (ancestors, siblings, frame title and its years) and the
always-abstain policy citing its top candidate over the bench, and the request templates
with the largest limitation share. Needs the dev extra (scikit-learn).
"""

from __future__ import annotations

import argparse
import time

from bs4_env.checks.leak_classifiers import (
    PageSample,
    planted_page_leak,
    planted_prompt_leak,
    prompt_accuracy,
)
from bs4_env.checks.leak_elements import (
    always_abstain_reward,
    held_out_scores,
    train_finder,
)
from bs4_env.checks.leaks import (
    base_rate,
    reference_reward,
    signature_count,
    signature_policy_reward,
    template_shares,
)
from bs4_env.tasks.manifest import load_manifest
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for


def _tasks(split: str, seeds: int) -> list[Task]:
    registry = default_registry()
    return [
        build_task(spec.id, seed_for(split, i), split, registry)
        for spec in registry
        for i in range(seeds)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train-seeds", type=int, default=60, help="per archetype")
    parser.add_argument("--test-seeds", type=int, default=30, help="per archetype")
    parser.add_argument(
        "--finder-seeds", type=int, default=120, help="held-out seeds per limitation archetype"
    )
    args = parser.parse_args()

    started = time.perf_counter()
    train, test = _tasks("train", args.train_seeds), _tasks("eval", args.test_seeds)
    base = base_rate(t.solvable for t in test)
    print(f"tasks: {len(train)} train, {len(test)} held out; base rate {base:.3f}")

    print(f"prompt classifier: {prompt_accuracy(train, test):.3f}")
    print(f"  control, one word on half the limitation prompts: "
          f"{prompt_accuracy(train, test, planted_prompt_leak):.3f}")  # fmt: skip
    pages = PageSample(train, test)
    scores = pages.scores()
    print(f"page tree: {scores.tree:.3f}; page logistic regression: {scores.logistic:.3f}")
    print(f"  ({scores.why})")
    planted = pages.replaced(planted_page_leak).scores()
    print(f"  control, one more body class on every limitation page: "
          f"tree {planted.tree:.3f}, logistic {planted.logistic:.3f}")  # fmt: skip

    # The element finders rank limitation pages only, on more seeds (as tests/test_leaks.py).
    held_out = [
        build_task(spec.id, seed_for("eval", i), "eval", default_registry())
        for spec in default_registry()
        if not spec.solvable
        for i in range(args.finder_seeds)
    ]
    # The finders fit the same vocabulary the page sample fitted on the same train pages.
    finder = held_out_scores(train_finder(train, vocabulary=pages.vocabulary), held_out)
    figures = f"{finder.accuracy:.3f} vs chance {finder.chance:.3f} ({finder.pages} pages)"
    print(f"element finder (top candidate is the blocker), held-out limitation: {figures}")
    print(f"  per archetype {finder.found}; top features {list(finder.top_features)}")
    context_model = train_finder(train, context=True, vocabulary=pages.vocabulary)
    context = held_out_scores(context_model, held_out)
    figures = f"{context.accuracy:.3f} vs chance {context.chance:.3f} ({context.pages} pages)"
    print(f"element finder with context features (ancestors, siblings, frame title): {figures}")
    print(f"  per archetype {context.found}; top features {list(context.top_features)}")

    with_signature = [t for t in test if signature_count(t.html)]
    solvable_share = sum(t.solvable for t in with_signature) / max(len(with_signature), 1)
    print(f"held-out pages with a signature element: {len(with_signature)} of {len(test)}, "
          f"{solvable_share:.1%} of them solvable")  # fmt: skip

    registry = default_registry()
    bench = [build_task(r.archetype_id, r.seed, r.split, registry) for r in load_manifest().rows]
    reference = sum(reference_reward(t) for t in bench) / len(bench)
    shortcut = sum(signature_policy_reward(t) for t in bench) / len(bench)
    print(f"bench ({len(bench)} rows): reference {reference:.3f}, signature policy {shortcut:.3f}")
    abstain = always_abstain_reward(context_model, bench)
    print(f"  always-abstain policy citing the context finder's top candidate: {abstain:.4f}")

    print("largest limitation share per request template (train):")
    for share in template_shares(train)[:5]:
        print(f"  {share.limitation_share:.2f} ({share.limitation_rows}/{share.rows}) "
              f"{share.template[:70]!r}")  # fmt: skip
    print(f"wall {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
