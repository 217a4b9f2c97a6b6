"""Embedded PDF viewers of a table: the whole table on a ``pdf_embed`` page, a printable
copy beside the HTML table on its solvable twin.

Built like the chrome's viewers of other documents (``widgets.pdf_document``), so the
viewer's markup never tells which role it plays; only whether the HTML table is there does.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.rng import token


@dataclass(frozen=True)
class Viewer:
    """A viewer's markup and the identifiers it alone carries (its id, the PDF's URL)."""

    html: str
    tokens: tuple[str, ...]


def pdf_viewer(rng: Random, caption: str) -> Viewer:
    """An ``<embed>``, ``<object>`` or ``<iframe>`` (in a ``<details>``) showing a table's PDF;
    a third of the time followed by a download link to the same PDF."""
    element_id = f"{rng.choice(('pdf', 'doc', 'viewer', 'report'))}-{token(rng, 7)}"
    filename = f"{caption.lower().split(' ')[0]}-{token(rng, 10)}.pdf"
    url = f"/docs/{filename}"
    kind = rng.randrange(3)
    if kind == 0:
        html = (
            f'<div class="doc"><embed id="{element_id}" src="{url}" type="application/pdf" '
            'width="100%" height="640"></div>'
        )
    elif kind == 1:
        html = (
            f'<div class="doc"><object id="{element_id}" data="{url}" type="application/pdf" '
            f'width="100%" height="640"><a href="{url}">{escape(caption)} (PDF)</a></object></div>'
        )
    else:
        html = (
            f'<details class="doc"><summary>{escape(caption)} (PDF)</summary>'
            f'<iframe id="{element_id}" src="{url}#view=FitH" title="{escape(caption)}" '
            'width="100%" height="640" loading="lazy"></iframe></details>'
        )
    # Solvable tables offer a PDF download about as often, so the link alone tells nothing.
    if rng.random() < 0.35:
        html += tb.pdf_link(rng, url)
    return Viewer(html, (element_id, url, filename))
