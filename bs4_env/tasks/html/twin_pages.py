"""One page of a limitation kind or of its solvable twin, and the ``Generated`` it becomes.

The page builders of the font, form, canvas and image families (``slot_pages``, around the
elements of ``glyph_fonts``, ``result_forms``, ``canvas_slots`` and ``text_images``) and of
the media family (``media_pages``) build a limitation page and its twin with one function and
a flag; each returns a ``TwinPage``, and
``generated`` turns it into the archetype's result, so a limitation archetype and its
twin differ in nothing but that flag.
"""

from __future__ import annotations

from dataclasses import dataclass

from bs4_env.tasks import queries
from bs4_env.tasks.model import Generated, JSONValue, LimitationInfo, LimitReason


@dataclass(frozen=True)
class TwinPage:
    """A whole page, its request, the truth a solvable page holds, and the blocking tokens.

    ``tokens`` are the seed-random identifiers of the element that would block extraction
    (its id, URL, form action, font family); only a limitation page cites them.
    """

    html: str
    query: queries.Query
    truth: JSONValue
    tokens: tuple[str, ...]


def generated(page: TwinPage, blocked_by: LimitReason | None) -> Generated:
    """The page as a solvable task (``blocked_by`` None) or as a limitation task."""
    if blocked_by is None:
        return Generated(
            html=page.html,
            query=page.query.text,
            query_template=page.query.template,
            answer_schema=page.query.answer_schema,
            truth=page.truth,
        )
    return Generated(
        html=page.html,
        query=page.query.text,
        query_template=page.query.template,
        answer_schema=page.query.answer_schema,
        truth=None,
        limitation=LimitationInfo(reasons=(blocked_by,), evidence_tokens=page.tokens),
    )
