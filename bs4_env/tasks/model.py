"""The immutable task record and the metadata every archetype declares."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from random import Random
from types import MappingProxyType
from typing import Any, Protocol, TypeAlias

JSONValue: TypeAlias = Any
"""A value that round-trips through ``json.dumps``/``json.loads`` unchanged."""


class Category(StrEnum):
    CORE = "core"
    TABLES = "tables"
    FORMS = "forms"
    TRAVERSAL = "traversal"
    GOTCHAS = "gotchas"
    MALFORMED = "malformed"
    STRUCTURED = "structured"
    I18N = "i18n"
    MULTIPAGE = "multipage"
    SELECTORS = "selectors"
    LISTS = "lists"
    TEXT = "text"
    ENCODING = "encoding"
    METADATA = "metadata"
    APP_STATE = "app_state"
    MEDIA = "media"
    LOCALE = "locale"
    AGGREGATION = "aggregation"
    ROBUSTNESS = "robustness"
    LIMITATION = "limitation"
    PAGES = "pages"
    """Labelled pages from a rows file (``bs4_env.pages``), not an archetype's."""


class Difficulty(StrEnum):
    PRIMER = "primer"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


DIFFICULTY_RANK: Mapping[Difficulty, int] = MappingProxyType(
    {Difficulty.PRIMER: 0, Difficulty.EASY: 1, Difficulty.MEDIUM: 2, Difficulty.HARD: 3}
)


class LimitReason(StrEnum):
    """Why a page cannot be extracted statically. The same list is shown on every task."""

    JS_RENDERED = "js_rendered"
    CANVAS_TEXT = "canvas_text"
    IMAGE_TEXT = "image_text"
    PDF_EMBED = "pdf_embed"
    BOT_WALL = "bot_wall"
    LOGIN_REQUIRED = "login_required"
    INFINITE_SCROLL = "infinite_scroll"
    FONT_OBFUSCATION = "font_obfuscation"
    MEDIA_ONLY = "media_only"
    FORM_SUBMISSION = "form_submission"


LIMIT_REASON_TEXT: Mapping[LimitReason, str] = MappingProxyType(
    {
        LimitReason.JS_RENDERED: "filled in by JavaScript from another request",
        LimitReason.CANVAS_TEXT: "drawn on a canvas",
        LimitReason.IMAGE_TEXT: "only pixels in an image",
        LimitReason.PDF_EMBED: "only inside an embedded PDF",
        LimitReason.BOT_WALL: "a bot check or challenge page stands in for the content",
        LimitReason.LOGIN_REQUIRED: "only shown after signing in",
        LimitReason.INFINITE_SCROLL: "the rest is loaded while scrolling (more pages by XHR)",
        LimitReason.FONT_OBFUSCATION: "the characters only read right through a custom font",
        LimitReason.MEDIA_ONLY: "only said or shown in a video or audio file",
        LimitReason.FORM_SUBMISSION: "only returned after submitting a form",
    }
)
"""What each reason means, in the words the prompt uses (one place for every reason)."""


@dataclass(frozen=True)
class Normalization:
    """How an answer is compared with the truth; each archetype declares its own."""

    collapse_whitespace: bool = True
    unicode_nfc: bool = True
    casefold: bool = False
    unordered_lists: bool = False


@dataclass(frozen=True)
class LimitationInfo:
    """For unsolvable tasks: accepted reasons and tokens that locate the blocking element.

    Each evidence token is a distinctive, seed-random string (an element id, a script or
    image URL) that appears only on the element that makes extraction impossible, so citing
    evidence requires having looked at that element.
    """

    reasons: tuple[LimitReason, ...]
    evidence_tokens: tuple[str, ...]


@dataclass(frozen=True)
class Generated:
    """What an archetype generator returns for one seed."""

    html: str
    query: str
    truth: JSONValue
    query_template: str
    pages: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    start_url: str = "https://shop.example/"
    limitation: LimitationInfo | None = None
    secrets: tuple[str, ...] = ()
    answer_schema: str | None = None
    """Overrides the archetype's ``answer_schema`` for archetypes whose requests vary in shape."""


@dataclass(frozen=True)
class ArchetypeSpec:
    """Registered metadata and generator of one archetype."""

    id: str
    category: Category
    difficulty: Difficulty
    solvable: bool
    version: int
    description: str
    answer_schema: str
    generate: Callable[[Random], Generated]
    normalization: Normalization = Normalization()
    phase: str = "mvp"
    free_tool_calls: int = 3
    # A twin that shares its counterpart's reference program names it here (one file, read
    # by both) instead of keeping a byte-identical ``<id>_solution.py`` of its own.
    solution_of: str | None = None


class AnswerCheck(Protocol):
    """A task's own answer rule (labelled pages: accepted values under a row's normaliser)."""

    def matches(self, answer: JSONValue) -> bool:
        """Whether an ``ok`` answer is right; never raises."""
        ...


@dataclass(frozen=True)
class Task:
    """One fully generated task. The truth stays on the host; only the prompt leaves it."""

    archetype_id: str
    seed: int
    split: str
    html: str
    pages: Mapping[str, str]
    start_url: str
    query: str
    query_template: str
    answer_schema: str
    normalization: Normalization
    truth: JSONValue
    solvable: bool
    limitation: LimitationInfo | None
    secrets: tuple[str, ...]
    difficulty: Difficulty
    category: Category
    generator_version: int
    free_tool_calls: int
    answer_check: AnswerCheck | None = None
    """Set for labelled pages: replaces comparing with ``truth`` under ``normalization``."""
    row_id: str | None = None
    """The row id of a labelled page (``archetype_id`` is its family, ``seed`` its index)."""
    timeout_s: float | None = None
    """Seconds per ``run_python`` call for this task, when it sets its own."""

    @property
    def is_multipage(self) -> bool:
        return len(self.pages) > 1

    def page(self, url: str) -> str:
        """The HTML of a linked page; raises KeyError for an unknown URL."""
        return self.pages[url]
