"""What a request or a page script says about the page holds on the page (registry-wide).

Found by a second author solving the newer archetypes from the prompt alone (issue 17 D, F):
a "Most helpful" box said to repeat a review showed another one; "up to the next heading"
ran past the guide's last section into the page's chrome; a price "exactly as displayed"
was displayed nowhere; a "load more" script skipped real items and called an undefined
function. Each test samples every archetype; an archetype whose requests or pages make the
claim is then checked on many more seeds, so a rare failure shows too.
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Callable

import pytest
from bs4 import BeautifulSoup
from lxml import html as lxml_html

from bs4_env.tasks.html import mounts
from bs4_env.tasks.model import Task
from bs4_env.tasks.registry import Registry, build_task
from bs4_env.tasks.splits import seed_for
from tests.page_scripts import blob_loaders, free_names

pytestmark = pytest.mark.slow

SAMPLE = int(os.environ.get("BS4ENV_CLAIM_SAMPLE", "5"))
DEEP = int(os.environ.get("BS4ENV_CLAIM_SEEDS", "150"))
_RECORD_ID = re.compile(r"^data-(?:[a-z]+-)*id$")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _deep(registry: Registry, sampled: Callable[[Task], bool], what: str) -> list[Task]:
    """``DEEP`` train tasks of every archetype with a ``SAMPLE`` task for which ``sampled``."""
    ids = [
        spec.id
        for spec in registry
        if any(
            sampled(build_task(spec.id, seed_for("train", i), "train", registry))
            for i in range(SAMPLE)
        )
    ]
    assert ids, f"no archetype {what}: the test would check nothing"
    return [
        build_task(a, seed_for("train", i), "train", registry) for a in ids for i in range(DEEP)
    ]


def _claimants(registry: Registry, says: str) -> list[Task]:
    """``DEEP`` train tasks of every archetype whose sampled requests say ``says``."""
    return _deep(
        registry, lambda t: says in (t.query + " " + t.answer_schema).lower(), f"says {says!r}"
    )


def _text(element: lxml_html.HtmlElement) -> str:
    return " ".join(element.text_content().split())


def test_repeated_records_show_the_same_record(registry: Registry) -> None:
    """Elements with the same ``data-*-id`` show the same text: a copy is a true copy."""
    checked = 0
    for spec in registry:
        for i in range(DEEP // 5):
            task = build_task(spec.id, seed_for("train", i), "train", registry)
            groups: dict[tuple[str, str], list[str]] = defaultdict(list)
            for element in lxml_html.document_fromstring(task.html).iter():
                for name, value in getattr(element, "attrib", {}).items():
                    if isinstance(name, str) and _RECORD_ID.match(name):
                        groups[(name, value)].append(_text(element))
            for key, texts in groups.items():
                checked += len(texts) > 1
                assert len(set(texts)) == 1, (task.archetype_id, task.seed, key, texts)
    assert checked, "no page repeats a record: the test would check nothing"


def _paragraphs_after(heading: lxml_html.HtmlElement, within: set[object] | None) -> list[str]:
    """The ``<p>`` texts after ``heading`` in document order, up to the next heading (or up
    to the first element outside ``within``)."""
    found: list[str] = []
    order = list(heading.getroottree().iter())
    for element in order[order.index(heading) + 1 :]:
        if element.tag in _HEADINGS or (within is not None and element not in within):
            break
        if element.tag == "p":
            found.append(_text(element))
    return found


def test_next_heading_requests_say_where_the_last_section_ends(registry: Registry) -> None:
    """Read literally, "up to the next heading" must give the truth, or the request names the
    container whose end bounds the last section (and that reading gives the truth)."""
    for task in _claimants(registry, "next heading"):
        root = lxml_html.document_fromstring(task.html)
        title = re.findall(r'"([^"]+)"', task.query)[0]
        heading = next(h for h in root.iter(*_HEADINGS) if _text(h) == title)
        if _paragraphs_after(heading, None) == task.truth:
            continue
        bound = re.search(r"or the end of the (\w+)", task.query)
        assert bound, (task.archetype_id, task.seed, "the last section runs into the page")
        word = bound.group(1)
        container = next(a for a in heading.iterancestors() if a.tag == word or word in a.classes)
        within = set(container.iter())
        assert _paragraphs_after(heading, within) == task.truth, (task.archetype_id, task.seed)


def _displayed(html: str) -> str:
    """The page's text a reader can see (``<noscript>`` fallbacks and text alternatives count)."""
    root = lxml_html.document_fromstring(html)
    for element in list(root.iter("script", "style", "template", "head")):
        element.drop_tree()
    alternatives = [
        value for e in root.iter() for name in ("alt", "aria-label") if (value := e.get(name))
    ]
    for element in list(root.iter()):
        style = (element.get("style") or "").replace(" ", "").lower()
        if element.get("hidden") is not None or "display:none" in style:
            element.drop_tree()
    return " ".join(" ".join([root.text_content(), *alternatives]).split())


def _written_forms(value: str) -> set[str]:
    """``value`` as JSON may write it inside a page: raw, escaped, or escaped twice (a JSON
    string inside a script's string literal), with or without ``\\uXXXX`` escapes."""
    forms = {value}
    for _ in range(2):
        forms |= {
            json.dumps(f, ensure_ascii=ascii_only)[1:-1]
            for f in forms
            for ascii_only in (True, False)
        }
    return forms


def test_values_said_to_be_displayed_are_displayed(registry: Registry) -> None:
    """A value asked "exactly as displayed" is on the page's displayed text, unless the
    request says what to do where it is not displayed (and it is then in the page's data)."""
    for task in _claimants(registry, "exactly as displayed"):
        if not task.solvable or not isinstance(task.truth, str):
            continue
        truth = " ".join(task.truth.split())
        if truth in _displayed(task.html):
            continue
        said = task.query + " " + task.answer_schema
        assert "where the page does not display it" in said, (task.archetype_id, task.seed, truth)
        assert any(form in task.html for form in _written_forms(task.truth)), (
            task.archetype_id,
            task.seed,
        )


def test_page_scripts_define_what_they_use(registry: Registry) -> None:
    """Every inline script uses only names it defines, the browser's, or those of a renderer
    bundle the page loads: a page script that would throw does not do what the page says."""
    for spec in registry:
        for i in range(DEEP // 10):
            task = build_task(spec.id, seed_for("train", i), "train", registry)
            for page in task.pages.values():
                root = lxml_html.document_fromstring(page)
                bundles = " ".join(s.get("src", "") for s in root.iter("script"))
                for script in root.iter("script"):
                    if script.get("src") or "json" in (script.get("type") or ""):
                        continue
                    unknown = {
                        name
                        for name in free_names(script.text or "")
                        if name not in mounts.RENDER_CALLS or mounts.bundle_of(name) not in bundles
                    }
                    assert not unknown, (spec.id, task.seed, unknown, (script.text or "")[:300])


def _reads_its_blob(task: Task) -> bool:
    return ".slice(" in task.html and bool(blob_loaders(BeautifulSoup(task.html, "lxml")))


def test_load_more_scripts_add_exactly_the_items_not_shown(registry: Registry) -> None:
    """A script that appends a JSON blob's items after those shown skips exactly the items
    the list shows (placeholder cards are not items), so the list ends up holding them all."""
    checked = 0
    for task in _deep(registry, _reads_its_blob, "has a loader reading a JSON blob"):
        for loader in blob_loaders(BeautifulSoup(task.html, "lxml")):
            checked += 1
            listed = next(
                e for e in loader.elements.values() if "items" in e.get_attribute_list("class")
            )
            shown = [
                " ".join(name.get_text().split())
                for name in listed.select("li.item:not(.skeleton) .item-name")
            ]
            offset = loader.slice_offset()
            assert offset == len(shown), (task.archetype_id, task.seed, offset, len(shown))
            assert loader.blob_items()[:offset] == shown, (task.archetype_id, task.seed)
    assert checked, "no load-more script reads a JSON blob: the test would check nothing"
