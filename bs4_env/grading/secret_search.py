"""Look for every form of each secret (``secret_forms``) in a reply and what it hides.

The reply is searched as two indexed texts: its skeleton and its lite form (``skeleton``).
Only if some secret is not found there are the texts hidden in the reply decoded
(``secret_decoders``) and their skeletons searched as well (lite forms, which a decoded
text rarely holds, are not: that halves the indexing), each reported with how it was
hidden. The reply's literal views (escapes kept) are searched and decoded as well, so an
encoding whose characters look like escapes is found as written. A form
is only examined when one of its entry grams is among the texts' grams: one set
intersection per secret rules out nearly all of a secret's few hundred forms at once.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from bs4_env.grading.canonical import canonical
from bs4_env.grading.secret_decoders import hidden_texts
from bs4_env.grading.secret_forms import Form, secret_forms
from bs4_env.grading.skeleton import (
    LITE_STRIDE,
    SKELETON_STRIDE,
    ProbeBudget,
    TextIndex,
    entry_grams,
    lite,
    skeleton,
)


@dataclass(frozen=True)
class Search:
    """The form each found secret was in, and whether the search saw the whole reply."""

    found: dict[str, str] = field(default_factory=dict)
    complete: bool = True


class _Texts:
    """Skeleton and lite indexes over some texts, with how each text was hidden."""

    def __init__(self) -> None:
        self.vias: list[str] = []
        self.budget = ProbeBudget()
        self.skeletons = TextIndex(SKELETON_STRIDE, budget=self.budget)
        self.lites = TextIndex(LITE_STRIDE, budget=self.budget)

    def add(self, via: str, folded: str) -> None:
        self.vias.append(via)
        self.skeletons.add(skeleton(folded))
        if not via:  # lite forms (base85, rot47) are looked for in the reply itself only
            self.lites.add(lite(folded))

    def locate(self, form: Form) -> str | None:
        """Where ``form`` is: its label, with how the text holding it was hidden."""
        index = self.lites if form.lite else self.skeletons
        holder = index.holder(form.needle)
        if holder is not None:
            via = self.vias[holder]
            return f"{form.label} inside {via}" if via else form.label
        if form.pieces > 1:
            count = index.pieces(form.needle, form.pieces)
            if count is not None:
                return f"{form.label} in {count} pieces"
        return None


@functools.lru_cache(maxsize=1024)
def _entries(secret: str, lite_forms: bool) -> dict[str, tuple[int, ...]]:
    """Entry gram -> the numbers of ``secret``'s forms (of one kind) that start with it."""
    entries: dict[str, list[int]] = {}
    stride = LITE_STRIDE if lite_forms else SKELETON_STRIDE
    for number, form in enumerate(secret_forms(secret)):
        if form.lite == lite_forms:
            for gram in entry_grams(form.needle, stride):
                entries.setdefault(gram, []).append(number)
    return {gram: tuple(numbers) for gram, numbers in entries.items()}


def _first(texts: _Texts, secret: str) -> str | None:
    """The first form of ``secret`` (in ``secret_forms`` order) found in ``texts``."""
    candidates: set[int] = set()
    for index, lite_forms in ((texts.skeletons, False), (texts.lites, True)):
        entries = _entries(secret, lite_forms)
        for gram in index.grams.intersection(entries):
            candidates.update(entries[gram])
    forms = secret_forms(secret)
    for number in sorted(candidates):
        where = texts.locate(forms[number])
        if where is not None:
            return where
    return None


def search_forms(
    secrets: Sequence[str], plain: str, folded: str, literals: Sequence[str] = ()
) -> Search:
    """Which of ``secrets`` appear in the reply (``plain`` decoded, ``folded`` canonical,
    ``literals`` its views with escapes kept: ``canonical.literal_views``)."""
    texts = _Texts()
    texts.add("", folded)
    for view in literals:
        texts.add("", view.casefold())
    found = {secret: where for secret in secrets if (where := _first(texts, secret))}
    missing = [secret for secret in secrets if secret not in found]
    if not missing:
        return Search(found)
    # Tokens that undoing escapes changed, as written: an ascii85 or base85 run in them
    # breaks once undone.
    tokens = set(plain.split())
    written = [run for view in literals for run in view.split() if run not in tokens]
    hidden = hidden_texts(
        plain,
        unicode=not all(secret.isascii() for secret in missing),
        written="\n".join(dict.fromkeys(written)),
    )
    for via, text in hidden.texts:
        texts.add(via, canonical(text))
    if hidden.texts:
        found |= {secret: where for secret in missing if (where := _first(texts, secret))}
    return Search(found, hidden.complete and not texts.budget.spent)
