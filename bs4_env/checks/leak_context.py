"""Can the blocker be told from its copies by what surrounds it? The context finder.

``leak_elements`` looks at a candidate's own surface. A page also frames each element: the
blocker stands in the requested slot (``div.price-box < div.summary < article.pdp-main``),
under a title from the requested content's pool, a table caption of the page's year; its
copies (``blocker_copies``) must be framed alike, or a request-blind policy finds the
blocker by its frame. So this module adds what is around a candidate: its ancestors' tags
and class shapes (``MAX_DEPTH`` levels), its own and its two nearest ancestors' siblings,
the words of its frame's title (the nearest heading, ``<dt>`` or caption before it or
above it) and the years in that title. ``always_abstain_reward`` plays the policy the
issue measured: trained on train-split pages, it abstains on every row of a bench and
cites the outer HTML of the candidate it ranks first; its mean reward over the rows is
the figure ``tests/test_leaks.py`` bounds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from lxml import etree

from bs4_env.checks.leak_features import Vocabulary

MAX_DEPTH = 5
SIBLING_LEVELS = 3
MAX_TITLE_WORDS = 8
CITED_CHARS = 300
"""How much of the top candidate's outer HTML the policy cites (its identifiers are in it)."""
_TITLES = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "dt", "caption", "legend", "summary"})
_WORD = re.compile(r"[a-z]{3,}")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def _classes(prefix: str, element: etree._Element, vocabulary: Vocabulary) -> dict[str, int]:
    found = {f"{prefix}:{element.tag}": 1}
    found.update(
        (f"{prefix}-class:{vocabulary.shape(c)}", 1) for c in element.get("class", "").split()
    )
    return found


def _text(element: etree._Element) -> str:
    return " ".join(" ".join(element.itertext()).split())


def frame_title(element: etree._Element) -> str:
    """The title of the frame ``element`` sits in: the nearest title element (heading,
    ``<dt>``, caption, legend) among the siblings before it or its ancestors, or among
    an ancestor's children; empty when there is none within ``MAX_DEPTH`` levels."""
    node = element
    for _ in range(MAX_DEPTH):
        for sibling in node.itersiblings(preceding=True):
            if isinstance(sibling.tag, str) and sibling.tag in _TITLES:
                return _text(sibling)
        parent = node.getparent()
        if parent is None:
            return ""
        for child in parent:
            if isinstance(child.tag, str) and child.tag in _TITLES:
                return _text(child)
        node = parent
    return ""


def context_features(element: etree._Element, vocabulary: Vocabulary) -> dict[str, int]:
    """What surrounds one candidate: ancestors, siblings, its frame's title and years."""
    found: dict[str, int] = {}
    ancestors = [a for a in element.iterancestors() if isinstance(a.tag, str)][:MAX_DEPTH]
    for depth, ancestor in enumerate(ancestors, 1):
        found.update(_classes(f"anc{depth}", ancestor, vocabulary))
    for level, node in enumerate([element, *ancestors][:SIBLING_LEVELS]):
        parent = node.getparent()
        if parent is None:
            continue
        for sibling in parent:
            if sibling is not node and isinstance(sibling.tag, str):
                found.update(_classes(f"sib{level}", sibling, vocabulary))
    title = frame_title(element).casefold()
    found.update((f"title-word:{word}", 1) for word in _WORD.findall(title)[:MAX_TITLE_WORDS])
    found.update((f"title-year:{year}", 1) for year in _YEAR.findall(title))
    found[f"titled:{bool(title)}"] = 1
    return found


def citation(element: etree._Element) -> str:
    """What the policy cites: the start of the element's outer HTML."""
    markup = etree.tostring(element, method="html", encoding="unicode", with_tail=False)
    return str(markup)[:CITED_CHARS]


def abstention(reason: str, evidence: str) -> str:
    """A final message that abstains with ``reason`` and ``evidence``."""
    return json.dumps({"status": "limit", "limit": {"reason": reason, "evidence": evidence}})


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
