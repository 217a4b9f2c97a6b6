"""Held-out classifiers that try to read solvability off prompts and pages (the leak audit).

A logistic regression on word n-grams of the prompt and a decision tree on a bag of tag and
attribute names of the page, trained on one set of tasks and scored on another.
``tests/test_leaks.py`` holds them to the base rate; ``scripts/leak_audit.py`` prints the
figures. scikit-learn is a dev dependency, imported only when a classifier runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from bs4_env.checks.leaks import page_features, prompt_text
from bs4_env.tasks.model import Task


def prompt_accuracy(
    train: list[Task], test: list[Task], text: Callable[[Task], str] = prompt_text
) -> float:
    """Held-out accuracy of a word 1-2-gram logistic regression predicting ``solvable``."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    model = make_pipeline(
        CountVectorizer(ngram_range=(1, 2), binary=True, min_df=2),
        LogisticRegression(max_iter=3000),
    )
    model.fit([text(t) for t in train], [t.solvable for t in train])
    predicted = model.predict([text(t) for t in test])
    hits = sum(bool(p == t.solvable) for p, t in zip(predicted, test, strict=True))
    return hits / len(test)


def page_accuracy(
    train: list[Task], test: list[Task], html: Callable[[Task], str] = lambda t: t.html
) -> tuple[float, str]:
    """Held-out accuracy of a tree on the page's tag/attribute bag, and what it caught."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.tree import DecisionTreeClassifier

    def bag(task: Task) -> dict[str, int]:
        return dict(Counter(page_features(html(task))))

    vectorizer = DictVectorizer()
    tree = DecisionTreeClassifier(max_depth=12, min_samples_leaf=2, random_state=0)
    tree.fit(vectorizer.fit_transform([bag(t) for t in train]), [t.solvable for t in train])
    predicted = tree.predict(vectorizer.transform([bag(t) for t in test]))
    hits = [p == t.solvable for p, t in zip(predicted, test, strict=True)]
    caught = Counter(
        t.archetype_id for hit, t in zip(hits, test, strict=True) if hit and not t.solvable
    )
    names = vectorizer.get_feature_names_out()
    top = sorted(zip(tree.feature_importances_, names, strict=True), reverse=True)[:8]
    why = (
        f"limitation pages caught per archetype {dict(caught)}; top features {[n for _, n in top]}"
    )
    return sum(hits) / len(test), why


# Positive controls: leaks planted on purpose, which the classifiers must find.
PLANTED_CANVAS = "<canvas id='planted'></canvas>"


def planted_prompt_leak(task: Task) -> str:
    """The prompt with one telltale word on half the limitation prompts."""
    planted = not task.solvable and task.seed % 2 == 0
    return prompt_text(task) + (" unfortunately" if planted else "")


def planted_page_leak(task: Task) -> str:
    """The page with an extra canvas on every limitation page."""
    if task.solvable:
        return task.html
    return task.html.replace("</body>", PLANTED_CANVAS + "</body>")
