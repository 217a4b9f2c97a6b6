"""docs/grading-secrets.md lists exactly the secret forms the tests pin (issue 30, item 5).

Every test case of the secret tests (``ENCODINGS``, ``TRANSFORMS``, ``VARIANTS``,
``LONG_VARIANTS``, ``LISTED``) is named in the page's "Forms caught" tables, and every name
there is a test case; the page promises no "any encoding".
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_grading_safety import ENCODINGS
from tests.test_grading_secret_escapes import LISTED
from tests.test_grading_secret_transforms import LONG_VARIANTS, TRANSFORMS, VARIANTS

DOC = Path(__file__).resolve().parent.parent / "docs" / "grading-secrets.md"


def _caught_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split("## Forms caught", 1)[1].split("\n## ", 1)[0]


def test_the_page_names_exactly_the_pinned_forms() -> None:
    rows = [line for line in _caught_section().splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`([^`]+)`", row.split("|")[1])}
    pinned = {*ENCODINGS, *TRANSFORMS, *VARIANTS, *LONG_VARIANTS, *LISTED}
    assert named == pinned, (sorted(named - pinned), sorted(pinned - named))


def test_the_page_promises_no_encoding_it_does_not_catch() -> None:
    text = DOC.read_text(encoding="utf-8").casefold()
    assert "any encoding" not in text.replace('no "any encoding" promise', "")
