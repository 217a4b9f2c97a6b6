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
averaged over pages. With ``context`` the model also sees what surrounds each candidate
(``leak_context``: ancestors, siblings, frame title and its years), and
``always_abstain_reward`` plays the request-blind policy that abstains citing the top
candidate. ``tests/test_leaks.py`` holds both near chance;
``scripts/leak_audit.py`` prints the figures. scikit-learn is a dev dependency, imported
only when the model runs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from lxml import etree

from bs4_env.checks.leak_context import abstention, citation, context_features, mean
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


def features(
    element: etree._Element, vocabulary: Vocabulary, context: bool = False
) -> dict[str, int]:
    """The element-local features of one candidate, and what surrounds it if ``context``
    (``leak_context``)."""
    found = {f"tag:{element.tag}": 1, f"main:{_in_main(element)}": 1}
    if context:
        found.update(context_features(element, vocabulary))
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
    elements: tuple[etree._Element, ...]


def page_candidates(task: Task, vocabulary: Vocabulary, context: bool = False) -> PageCandidates:
    """The candidates of a page; on a solvable page none is part of a blocker."""
    return _candidates(task, vocabulary, (context,))[0]


def _candidates(
    task: Task, vocabulary: Vocabulary, contexts: tuple[bool, ...]
) -> tuple[PageCandidates, ...]:
    """``page_candidates`` for each of ``contexts`` from one parse and one choice of the
    candidates (most of a page's cost; the features are what differ)."""
    root = etree.fromstring(task.html.encode("utf-8"), PARSER)
    tokens = task.limitation.evidence_tokens if task.limitation else ()
    blocker = blocker_elements(root, tokens) if tokens else set()
    chosen = tuple(el for el in root.iter() if isinstance(el.tag, str) and is_candidate(el))
    blocking = tuple(el in blocker for el in chosen)
    return tuple(
        PageCandidates(task, tuple(features(el, vocabulary, c) for el in chosen), blocking, chosen)
        for c in contexts
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


def _pages(
    tasks: Sequence[Task], vocabulary: Vocabulary, context: bool
) -> Iterator[PageCandidates]:
    for task in tasks:
        if task.limitation is not None:
            yield page_candidates(task, vocabulary, context)


@dataclass(frozen=True)
class Finder:
    """A trained element finder: ranks a page's candidates, blocker-like first."""

    vocabulary: Vocabulary
    vectorizer: Any
    model: Any
    context: bool

    def best(self, page: PageCandidates) -> int:
        """The index of the candidate the model ranks first."""
        scores = self.model.decision_function(self.vectorizer.transform(list(page.rows)))
        return max(range(len(page.rows)), key=lambda i: scores[i])


def train_vocabulary(train: Sequence[Task]) -> Vocabulary:
    """The vocabulary a finder trained on ``train`` uses: fitted on every other train page
    (as ``leak_classifiers.PageSample`` fits its own on the same pages)."""
    return Vocabulary.fit(observations(t.html) for t in train[::2])


def train_finder(
    train: Sequence[Task], context: bool = False, vocabulary: Vocabulary | None = None
) -> Finder:
    """A logistic model over ``train``'s limitation pages (candidate in the blocker or not).

    ``vocabulary``: ``train_vocabulary(train)`` where the caller has it already (fitting it
    reads half the train pages again); a vocabulary of other pages gives another model."""
    if vocabulary is None:
        vocabulary = train_vocabulary(train)
    pages = [p for p in _pages(train, vocabulary, context) if any(p.blocking)]
    return _fit(pages, vocabulary, context)


def train_finders(train: Sequence[Task], vocabulary: Vocabulary) -> tuple[Finder, Finder]:
    """``train_finder(train, False, vocabulary)`` and ``train_finder(train, True,
    vocabulary)``: the same two models, each train page parsed once for both."""
    pairs = [
        _candidates(task, vocabulary, (False, True))
        for task in train
        if task.limitation is not None
    ]
    kept = [pair for pair in pairs if any(pair[0].blocking)]
    local = _fit([pages for pages, _ in kept], vocabulary, False)
    return local, _fit([pages for _, pages in kept], vocabulary, True)


def _fit(train_pages: list[PageCandidates], vocabulary: Vocabulary, context: bool) -> Finder:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([row for page in train_pages for row in page.rows])
    y = [label for page in train_pages for label in page.blocking]
    model = LogisticRegression(max_iter=3000)
    model.fit(x, y)
    return Finder(vocabulary, vectorizer, model, context)


def finder_scores(
    train: Sequence[Task], test: Sequence[Task], context: bool = False
) -> FinderScores:
    """Train on ``train``'s limitation pages, rank ``test``'s candidates (top-1 accuracy);
    with ``context``, the features include what surrounds each candidate."""
    return held_out_scores(train_finder(train, context), test)


def held_out_scores(finder: Finder, test: Sequence[Task]) -> FinderScores:
    """A trained finder's top-1 accuracy on ``test``'s limitation pages (``finder_scores``
    for a finder that is also used elsewhere: training it once is enough)."""
    return _scores(finder, _pages(test, finder.vocabulary, finder.context))


def held_out_pair(
    finders: tuple[Finder, Finder], test: Sequence[Task]
) -> tuple[FinderScores, FinderScores]:
    """``held_out_scores`` of each of two finders with one vocabulary (``train_finders``'),
    each test page parsed once for both."""
    first, second = finders
    if first.vocabulary is not second.vocabulary:
        raise ValueError("held_out_pair needs two finders with the same vocabulary")
    contexts = (first.context, second.context)
    pairs = [_candidates(t, first.vocabulary, contexts) for t in test if t.limitation is not None]
    return _scores(first, (a for a, _ in pairs)), _scores(second, (b for _, b in pairs))


def _scores(finder: Finder, test_pages: Iterable[PageCandidates]) -> FinderScores:
    found: Counter[str] = Counter()
    chance = 0.0
    kept = skipped = 0
    for page in test_pages:
        if not any(page.blocking):
            skipped += 1
            continue
        kept += 1
        found[page.task.archetype_id] += page.blocking[finder.best(page)]
        chance += sum(page.blocking) / len(page.blocking)
    names = finder.vectorizer.get_feature_names_out()
    order = sorted(range(len(names)), key=lambda i: -finder.model.coef_[0][i])[:8]
    return FinderScores(
        accuracy=sum(found.values()) / kept,
        chance=chance / kept,
        pages=kept,
        skipped=skipped,
        top_features=tuple(str(names[i]) for i in order),
        found=dict(found),
    )


def always_abstain_reward(finder: Finder, rows: Sequence[Task]) -> float:
    """Mean reward over ``rows`` of the policy that abstains on every row, with the right
    reason where there is one (an upper bound), citing the candidate ``finder`` ranks first."""
    from bs4_env.grading.rubric import ToolUsage, grade

    usage = ToolUsage(tool_calls=1, soup_runs=1)
    rewards: list[float] = []
    for task in rows:
        page = page_candidates(task, finder.vocabulary, finder.context)
        reason = task.limitation.reasons[0].value if task.limitation else "js_rendered"
        evidence = citation(page.elements[finder.best(page)]) if page.rows else "none"
        rewards.append(grade(task, abstention(reason, evidence), usage).reward)
    return mean(rewards)


__all__ = [
    "PARSER",
    "Finder",
    "FinderScores",
    "PageCandidates",
    "always_abstain_reward",
    "features",
    "finder_scores",
    "held_out_pair",
    "held_out_scores",
    "is_candidate",
    "train_finder",
    "train_finders",
    "train_vocabulary",
]
