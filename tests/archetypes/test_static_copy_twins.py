"""Font, media, form, canvas and image limitations look like twins that hold a static copy.

Each limitation kind here (a scrambled glyph font, a fact only said in a recording, data
only returned by a form, a canvas drawn from fetched data, an image of text) has solvable
twins built by the same page builder with one flag flipped, asked with the same requests
in the same mix, carrying the same kinds of elements, and solved by the same reference
program. Simple classifiers (as in ``test_leaks``, restricted to one limitation archetype
and its twins) must not tell them apart better than chance plus a margin.
"""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from bs4_env.checks.leaks import SIGNATURES
from bs4_env.tasks.html import media_facts
from bs4_env.tasks.html.glyph_fonts import PRIVATE_USE
from bs4_env.tasks.model import LimitReason, Task
from bs4_env.tasks.registry import Registry
from tests.archetypes.twin_checks import (
    MARGIN,
    MIX_SEEDS,
    cached_tasks,
    check_reason_and_planned_mix,
    check_same_program,
    check_same_request_mix,
    twin_accuracy,
)

TWINS = {
    "font_obfuscation": ("custom_font_value",),
    "media_only": ("video_transcript", "media_show_notes"),
    "form_submission": ("form_default_results",),
    "canvas_text": ("canvas_fallback_content",),
    "image_text": ("image_text_alternative",),
}
PAIRS = [(limitation, twin) for limitation, twins in TWINS.items() for twin in twins]
PLAN = {
    "font_obfuscation": {"featured_price": 1 / 2, "contact_phone": 1 / 2},
    "media_only": {"media_fact": 1.0},
    "form_submission": {"table_as_dicts": 1 / 2, "item_list": 1 / 2},
    "canvas_text": {"featured_price": 1 / 2, "column_by_header": 1 / 2},
    "image_text": {"contact_phone": 1 / 2, "table_as_dicts": 1 / 2},
}
REASON = {
    "font_obfuscation": LimitReason.FONT_OBFUSCATION,
    "media_only": LimitReason.MEDIA_ONLY,
    "form_submission": LimitReason.FORM_SUBMISSION,
    "canvas_text": LimitReason.CANVAS_TEXT,
    "image_text": LimitReason.IMAGE_TEXT,
}


@pytest.mark.parametrize(("limitation", "twin"), PAIRS)
def test_twin_is_solved_by_the_same_program(limitation: str, twin: str, registry: Registry) -> None:
    check_same_program(limitation, twin, registry)


@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_limitation_produces_its_reason_with_planned_template_mix(
    limitation: str, registry: Registry
) -> None:
    check_reason_and_planned_mix(limitation, REASON[limitation], PLAN[limitation], registry)


@pytest.mark.parametrize(("limitation", "twin"), PAIRS)
def test_twin_asks_the_same_requests_in_the_same_mix(
    limitation: str, twin: str, registry: Registry
) -> None:
    check_same_request_mix(limitation, twin, registry)


@pytest.mark.parametrize(("limitation", "twin"), PAIRS)
def test_twin_carries_the_kind_signature_as_often(
    limitation: str, twin: str, registry: Registry
) -> None:
    """A grep for the kind's signature hits twin pages as often as limitation pages."""
    patterns = [p for reason, p in SIGNATURES if reason is REASON[limitation]]

    def rate(archetype_id: str) -> float:
        tasks = cached_tasks(archetype_id, "train", MIX_SEEDS, registry)
        return sum(any(p.search(t.html) for p in patterns) for t in tasks) / len(tasks)

    ours, theirs = rate(limitation), rate(twin)
    assert theirs >= ours - MARGIN, f"signature on {ours:.2f} of {limitation}, {theirs:.2f} twin"


def _article_statements(task: Task) -> list[str]:
    """Values the page states for the requested fact inside the named recording's article."""
    title, phrase = re.findall(r'"(.+)" on this page, what is the (.+)\?', task.query)[0]
    rule = media_facts.RULES[phrase]
    soup = BeautifulSoup(task.html, "html.parser")
    heading = next(h for h in soup.find_all("h1") if h.get_text() == title)
    found = []
    for node in heading.find_parent("article").find_all(["p", "li"]):
        for sentence in re.split(r"(?<=[.!?])\s+", " ".join(node.get_text().split())):
            if rule.keyword.search(sentence):
                found += rule.pattern.findall(sentence)
    return found


@pytest.mark.parametrize("archetype_id", ["media_only", "video_transcript", "media_show_notes"])
def test_media_fact_is_stated_once_or_nowhere(archetype_id: str, registry: Registry) -> None:
    """Twins state the fact in exactly one place, the limitation nowhere; decoys never match."""
    for task in cached_tasks(archetype_id, "train", 200, registry):
        expected = [] if task.truth is None else [task.truth]
        assert _article_statements(task) == expected, task.seed


@pytest.mark.parametrize("archetype_id", ["font_obfuscation", "custom_font_value"])
def test_font_value_has_digits_only_on_the_twin(archetype_id: str, registry: Registry) -> None:
    """The element the font sets holds private-use glyphs instead of digits, or the truth."""
    for task in cached_tasks(archetype_id, "train", 200, registry):
        soup = BeautifulSoup(task.html, "html.parser")
        # The requested value's block: the one the request names (copies of the font
        # element stand in other products' and stores' blocks, built alike).
        block = next(
            found
            for found in soup.select("article[id^=product-], section.store-contact")
            if (title := found.find("h1")) is not None and title.get_text(strip=True) in task.query
        )
        element = next(
            tag
            for tag in block.find_all("span", id=True)
            if "font-family" in tag.get("style", "")
            or any(c.startswith("ff-") for c in tag["class"])
        )
        shown = "".join(element.get_text().split())
        private = [ch for ch in shown if ord(ch) in PRIVATE_USE]
        if task.solvable:
            assert not private and shown == "".join(str(task.truth).split()), task.seed
        else:
            assert private and not re.search(r"\d", shown), task.seed


# The elements that make up each kind's blocking mechanism (what the evidence may name).
MECHANISM_TAGS = {
    "font_obfuscation": {"span", "style"},
    "media_only": {"video", "audio", "iframe", "source", "track"},
    "form_submission": {"form", "div"},
    "canvas_text": {"canvas", "script"},
    "image_text": {"img", "span"},
}


def _carriers(html: str, tokens: tuple[str, ...]) -> dict[str, list[str]]:
    """Per token, the tags of the elements whose attributes or own text hold it (one parse
    and one walk of the page for every token)."""
    found: dict[str, list[str]] = {tok: [] for tok in tokens}
    for tag in BeautifulSoup(html, "html.parser").find_all(True):
        own_text = "".join(tag.find_all(string=True, recursive=False))
        values = [str(value) for value in tag.attrs.values()]
        for tok, tags in found.items():
            if tok in own_text or any(tok in value for value in values):
                tags.append(tag.name)
    return found


@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_evidence_tokens_only_on_the_blocking_elements(limitation: str, registry: Registry) -> None:
    """Each token is on the page, carried only by the few elements of the blocking mechanism."""
    for task in cached_tasks(limitation, "train", 40, registry):
        assert task.limitation is not None
        tokens = task.limitation.evidence_tokens
        by_token = _carriers(task.html, tokens)
        carriers = [tag for tok in tokens for tag in by_token[tok]]
        for tok in tokens:
            assert by_token[tok], (task.seed, tok)
        assert set(carriers) <= MECHANISM_TAGS[limitation], (task.seed, carriers)
        assert len(carriers) <= 2 * len(tokens) + 1, (task.seed, carriers)


@pytest.mark.slow
@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_prompt_does_not_tell_limitation_from_twin(limitation: str, registry: Registry) -> None:
    accuracy = twin_accuracy(limitation, TWINS[limitation], registry, "prompt")
    assert accuracy <= 0.5 + MARGIN, f"{limitation} vs {TWINS[limitation]}: {accuracy:.3f}"


@pytest.mark.slow
@pytest.mark.parametrize("limitation", sorted(TWINS))
def test_page_tags_do_not_tell_limitation_from_twin(limitation: str, registry: Registry) -> None:
    accuracy = twin_accuracy(limitation, TWINS[limitation], registry, "page")
    assert accuracy <= 0.5 + MARGIN, f"{limitation} vs {TWINS[limitation]}: {accuracy:.3f}"
