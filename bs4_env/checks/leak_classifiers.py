"""Held-out classifiers that try to read solvability off prompts and pages (the leak audit).

A logistic regression on word n-grams of the prompt; on the page, a decision tree and a
logistic regression on the surface features of ``leak_features`` (tag and attribute
presence, id, class and URL shapes, script and style words, private-use glyphs), trained
on one set of tasks and scored on another. ``tests/test_leaks.py`` holds them to the base
rate; ``scripts/leak_audit.py`` prints the figures. scikit-learn is a dev dependency,
imported only when a classifier runs.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from bs4_env.checks.leak_features import MIN_PAGES, Vocabulary, observations
from bs4_env.checks.leaks import prompt_text
from bs4_env.tasks.model import Task

Row: TypeAlias = "tuple[array[int], array[int]]"  # a string: array is not subscriptable at run time
"""One page's features: column indices and their values."""


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


@dataclass(frozen=True)
class PageScores:
    """Held-out accuracies of the page classifiers, and what the tree caught."""

    tree: float
    logistic: float
    why: str


class PageSample:
    """The train and test pages of a leak test as feature rows, the vocabulary fitted on the
    train pages. ``replaced`` re-encodes only the pages a variant changes (a planted leak
    touches the limitation pages alone), so a control costs a fraction of the first run."""

    def __init__(
        self,
        train: Sequence[Task],
        test: Sequence[Task],
        html: Callable[[Task], str] = lambda t: t.html,
        *,
        _base: PageSample | None = None,
    ) -> None:
        self.train, self.test, self._html = list(train), list(test), html
        if _base is None:
            # Fitted on every other training page, from a stream: no page's observations
            # outlive its turn, and half the pages are read once instead of twice.
            self.vocabulary = Vocabulary.fit(observations(html(t)) for t in self.train[::2])
            self._columns: dict[str, int] = {}
            self._rows = [self._encode(html(t)) for t in self.train + self.test]
            return
        self.vocabulary, self._columns = _base.vocabulary, _base._columns
        self._rows = [
            row
            if (page := html(t)) is (old := _base._html(t)) or page == old
            else self._encode(page)
            for t, row in zip(self.train + self.test, _base._rows, strict=True)
        ]

    def replaced(self, html: Callable[[Task], str]) -> PageSample:
        """The same tasks with pages from ``html`` (same vocabulary and columns)."""
        return PageSample(self.train, self.test, html, _base=self)

    def _encode(self, page: str) -> Row:
        columns = self._columns
        indices, values = array("i"), array("i")
        for feature, value in self.vocabulary.bag(observations(page)).items():
            indices.append(columns.setdefault(feature, len(columns)))
            values.append(value)
        return indices, values

    def _matrices(self) -> tuple[Any, Any, list[str]]:
        """Train and test matrices over the columns seen on ``MIN_PAGES`` train pages."""
        from scipy.sparse import csr_matrix  # with scikit-learn

        seen = Counter(i for indices, _ in self._rows[: len(self.train)] for i in indices)
        kept = sorted(i for i, n in seen.items() if n >= MIN_PAGES)
        position = {column: k for k, column in enumerate(kept)}

        def matrix(rows: list[Row]) -> Any:
            data, cols, pointers = array("i"), array("i"), array("i", [0])
            for indices, values in rows:
                for i, v in zip(indices, values, strict=True):
                    if i in position:
                        cols.append(position[i])
                        data.append(v)
                pointers.append(len(cols))
            return csr_matrix((data, cols, pointers), shape=(len(rows), len(kept)))

        names = {i: f for f, i in self._columns.items()}
        split = len(self.train)
        return matrix(self._rows[:split]), matrix(self._rows[split:]), [names[i] for i in kept]

    def scores(self) -> PageScores:
        """Fit both page classifiers on the train rows and score them on the test rows."""
        from sklearn.linear_model import LogisticRegression
        from sklearn.tree import DecisionTreeClassifier

        train_x, test_x, names = self._matrices()
        labels = [t.solvable for t in self.train]
        tree = DecisionTreeClassifier(max_depth=12, min_samples_leaf=2, random_state=0)
        tree_hits = _hits(tree.fit(train_x, labels).predict(test_x), self.test)
        # The regression sees presence only: a count would let one busy page dominate.
        train_x.data[:], test_x.data[:] = 1, 1
        logistic = LogisticRegression(solver="liblinear", max_iter=1000)
        logistic_hits = _hits(logistic.fit(train_x, labels).predict(test_x), self.test)
        caught = Counter(
            t.archetype_id
            for hit, t in zip(tree_hits, self.test, strict=True)
            if hit and not t.solvable
        )
        top = sorted(zip(tree.feature_importances_, names, strict=True), reverse=True)[:8]
        why = f"tree caught per archetype {dict(caught)}; top features {[n for _, n in top]}"
        return PageScores(
            tree=sum(tree_hits) / len(self.test),
            logistic=sum(logistic_hits) / len(self.test),
            why=why,
        )


def _hits(predicted: Sequence[bool], test: Sequence[Task]) -> list[bool]:
    return [bool(p == t.solvable) for p, t in zip(predicted, test, strict=True)]


def page_accuracy(
    train: list[Task], test: list[Task], html: Callable[[Task], str] = lambda t: t.html
) -> tuple[float, str]:
    """Held-out accuracy of the page tree, and what it caught (the twin tests' check)."""
    scores = PageSample(train, test, html).scores()
    return scores.tree, scores.why


# Positive controls: leaks planted on purpose, which the classifiers must find.
PLANTED_CLASS = "promo-ribbon"


def planted_prompt_leak(task: Task) -> str:
    """The prompt with one telltale word on half the limitation prompts."""
    planted = not task.solvable and task.seed % 2 == 0
    return prompt_text(task) + (" unfortunately" if planted else "")


def planted_page_leak(task: Task) -> str:
    """The page with one more class on its ``<body>`` on every limitation page: a leak only
    the shapes of the widened feature family see (no tag or attribute is added)."""
    if task.solvable:
        return task.html
    planted = task.html.replace('<body class="', f'<body class="{PLANTED_CLASS} ', 1)
    if planted == task.html:
        raise ValueError(f"{task.archetype_id} seed {task.seed}: no <body class> to plant on")
    return planted
