"""Can the blocking element be found by its own surface? The leak audit's element check.

A policy that always abstains pays on limitation pages if it can point at the blocker
without reading what was asked. So a model sees each *candidate* element of a page (what
a skimmer would take for a blocker: a canvas, an embedded document, an image, a player, a
form, a script that fetches or loads, a loading box, a bot check, a sign-in link, a font
rule, private-use glyphs) through element-local features only: its tag and attribute
names, its id and class shapes (seed-random parts masked, ``leak_features.Vocabulary``),
its own words, its parent's tag and classes, and whether it sits in the page's main
region. Trained on train-split limitation pages (candidate inside the blocker or not), it
ranks the candidates of each held-out limitation page; its accuracy is how often the top
one is part of the blocker, against chance: the share of a page's candidates that are,
averaged over pages. ``tests/test_leaks.py`` holds it near chance;
``scripts/leak_audit.py`` prints the figures. scikit-learn is a dev dependency, imported
only when the model runs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lxml import etree

from bs4_env.checks.leak_features import Vocabulary, observations
from bs4_env.grading.page_identifiers import blocker_elements
from bs4_env.tasks.model import Task

PARSER = etree.HTMLParser(recover=True, encoding="utf-8")
_TAGS = frozenset({"canvas", "iframe", "embed", "object", "video", "audio", "img", "form"})
_ATTRIBUTES = ("data-endpoint", "aria-busy", "data-next", "data-infinite", "data-sitekey")
_NAMES = re.compile(r"challenge|turnstile|captcha|bot-check|gate|sign-?in|login", re.I)
_SIGN_IN = re.compile(r"/(?:login|signin|session)\b")
_SCRIPT = re.compile(r"fetch\(|getContext|XMLHttpRequest")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
_WORD = re.compile(r"[a-z]{3,}")
MAX_WORDS = 12


def is_candidate(element: etree._Element) -> bool:
    """Whether a skimmer would take ``element`` for something that may block extraction."""
    tag = element.tag
    if tag in _TAGS:
        return True
    if any(name in element.attrib for name in _ATTRIBUTES):
        return True
    names = f"{element.get('id', '')} {element.get('class', '')}"
    if _NAMES.search(names):
        return True
    if tag == "a" and _SIGN_IN.search(element.get("href", "")):
        return True
    if element.get("role") == "img" or "url(" in element.get("style", ""):
        return True
    text = element.text or ""
    if tag == "script":
        return "src" in element.attrib or bool(_SCRIPT.search(text))
    if tag == "style":
        return "@font-face" in text
    return bool(_PRIVATE_USE.search(text))


def _in_main(element: etree._Element) -> bool:
    return any(
        parent.tag == "main" or parent.get("role") == "main" for parent in element.iterancestors()
    )


def _own_words(element: etree._Element) -> list[str]:
    if element.tag in ("script", "style"):
        return []
    text = " ".join(element.itertext()).casefold()
    return _WORD.findall(text)[:MAX_WORDS]


def features(element: etree._Element, vocabulary: Vocabulary) -> dict[str, int]:
    """The element-local features of one candidate."""
    found = {f"tag:{element.tag}": 1, f"main:{_in_main(element)}": 1}
    found.update((f"attr:{name}", 1) for name in element.attrib)
    if element.get("id"):
        found[f"id:{vocabulary.shape(element.get('id', ''))}"] = 1
    found.update((f"class:{vocabulary.shape(c)}", 1) for c in element.get("class", "").split())
    found.update((f"word:{word}", 1) for word in _own_words(element))
    parent = element.getparent()
    if parent is not None and isinstance(parent.tag, str):
        found[f"parent:{parent.tag}"] = 1
        found.update(
            (f"parent-class:{vocabulary.shape(c)}", 1) for c in parent.get("class", "").split()
        )
    return found


@dataclass(frozen=True)
class PageCandidates:
    """One limitation page's candidates: their features, and which are part of the blocker."""

    task: Task
    rows: tuple[dict[str, int], ...]
    blocking: tuple[bool, ...]


def page_candidates(task: Task, vocabulary: Vocabulary) -> PageCandidates:
    if task.limitation is None:
        raise ValueError(f"{task.archetype_id} has no limitation")
    root = etree.fromstring(task.html.encode("utf-8"), PARSER)
    blocker = blocker_elements(root, task.limitation.evidence_tokens)
    chosen = [el for el in root.iter() if isinstance(el.tag, str) and is_candidate(el)]
    return PageCandidates(
        task=task,
        rows=tuple(features(el, vocabulary) for el in chosen),
        blocking=tuple(el in blocker for el in chosen),
    )


@dataclass(frozen=True)
class FinderScores:
    """The element finder's held-out accuracy, chance, and what it relied on."""

    accuracy: float
    chance: float
    pages: int
    """Held-out pages with at least one blocking candidate (the others are left out)."""
    skipped: int
    top_features: tuple[str, ...]
    found: dict[str, int]
    """Held-out pages per limitation archetype on which the top candidate was the blocker."""


def _pages(tasks: Sequence[Task], vocabulary: Vocabulary) -> Iterator[PageCandidates]:
    for task in tasks:
        if task.limitation is not None:
            yield page_candidates(task, vocabulary)


def finder_scores(train: Sequence[Task], test: Sequence[Task]) -> FinderScores:
    """Train on ``train``'s limitation pages, rank ``test``'s candidates (top-1 accuracy)."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vocabulary = Vocabulary.fit(observations(t.html) for t in train[::2])
    train_pages = [p for p in _pages(train, vocabulary) if any(p.blocking)]
    test_pages = list(_pages(test, vocabulary))
    kept = [p for p in test_pages if any(p.blocking)]
    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([row for page in train_pages for row in page.rows])
    y = [label for page in train_pages for label in page.blocking]
    model = LogisticRegression(max_iter=3000)
    model.fit(x, y)
    found: Counter[str] = Counter()
    chance = 0.0
    for page in kept:
        scores = model.decision_function(vectorizer.transform(list(page.rows)))
        best = max(range(len(page.rows)), key=lambda i: scores[i])
        found[page.task.archetype_id] += page.blocking[best]
        chance += sum(page.blocking) / len(page.blocking)
    names = vectorizer.get_feature_names_out()
    order = sorted(range(len(names)), key=lambda i: -model.coef_[0][i])[:8]
    return FinderScores(
        accuracy=sum(found.values()) / len(kept),
        chance=chance / len(kept),
        pages=len(kept),
        skipped=len(test_pages) - len(kept),
        top_features=tuple(str(names[i]) for i in order),
        found=dict(found),
    )


__all__ = [
    "PARSER",
    "FinderScores",
    "PageCandidates",
    "features",
    "finder_scores",
    "is_candidate",
]
