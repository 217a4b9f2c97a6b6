"""Map each label of one form to the ``name`` of the control it labels.

Skill: resolving ``<label for="ID">`` with ``soup.find(id=...)`` and, for labels without
``for``, the control nested inside the label; reading the label's own text while leaving
out a ``<span class="required">*</span>`` marker and the option texts of a wrapped select.
Shortcuts resisted: ids are random and never equal to names; floating-label rows put the
control BEFORE its label, so "the next input after the label" is wrong; a second form on
the page reuses label texts (same "Email address") for other controls, so page-wide label
lookups or the first match pick the wrong name.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import forms, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_TITLES = (
    "Create your account",
    "Request a callback",
    "Partner application",
    "Update your profile",
    "Trade account signup",
    "Volunteer sign-up",
    "Report a problem",
    "Reserve a table",
)
_MARK = '<span class="required" aria-hidden="true">*</span>'


def _row(rng: Random, spec: forms.FieldSpec, name: str) -> str:
    """One labelled control in one of the layouts real form builders produce."""
    mark = _MARK if rng.random() < 0.45 else ""
    label = escape(spec.label)
    element_id = forms.control_id(rng)
    layout = rng.randrange(4)
    if spec.kind == "checkbox" or (layout == 0 and spec.kind != "textarea"):
        # Wrapping label, no for/id pair at all.
        bare = forms.control(rng, spec.kind, name, base=spec.base)
        if spec.kind == "checkbox":
            return f'<div class="check"><label>{bare} {label}{mark}</label></div>'
        return f'<div class="field"><label>{label}{mark}\n  {bare}</label></div>'
    ctl = forms.control(rng, spec.kind, name, element_id=element_id, base=spec.base)
    tag = f'<label for="{element_id}">{label} {mark}</label>'
    if layout == 1 and spec.kind not in ("select", "textarea"):
        return f'<div class="form-floating">{ctl}\n{tag}</div>'
    if layout == 2:
        return (
            f'<div class="grid-row"><div class="col-label">{tag}</div>'
            f'<div class="col-input"><!-- col -->{ctl}</div></div>'
        )
    return f'<div class="field">{tag}\n{ctl}</div>'


def _form(rng: Random, title: str, specs: list[forms.FieldSpec]) -> tuple[str, str, dict[str, str]]:
    form_id = f"form-{token(rng, 6)}"
    mapping: dict[str, str] = {}
    rows: list[str] = []
    for spec in specs:
        name = forms.field_name(rng, spec.base)
        mapping[spec.label] = name
        rows.append(_row(rng, spec, name))
    rows.insert(
        rng.randint(0, len(rows)), f'<input type="hidden" name="nonce" value="{token(rng)}">'
    )
    markup = (
        f'<section class="card"><h2>{escape(title)}</h2>'
        f'<form id="{form_id}" action="/{token(rng, 5)}" method="post" novalidate>'
        + "\n".join(rows)
        + '<button type="submit" class="btn">Save</button></form></section>'
    )
    return markup, form_id, mapping


def generate(rng: Random) -> Generated:
    title, decoy_title = rng.sample(_TITLES, 2)
    specs = rng.sample(forms.FIELD_POOL, rng.randint(4, 7))
    shared = rng.sample(specs, 2)
    others = [spec for spec in forms.FIELD_POOL if spec not in specs]
    decoy_specs = shared + rng.sample(others, rng.randint(1, 3))
    rng.shuffle(decoy_specs)
    target, form_id, truth = _form(rng, title, specs)
    decoy, _, _ = _form(rng, decoy_title, decoy_specs)
    blocks = [target, decoy]
    rng.shuffle(blocks)
    main = f"<h1>{escape(title)}</h1><p>{escape(pools.sentence(rng, 10))}</p>" + "\n".join(blocks)
    where = (
        f'the form with id "{form_id}"'
        if rng.random() < 0.5
        else f'the form under the heading "{title}"'
    )
    query = (
        f"For {where}, map each label's text to the name attribute of the control it labels, "
        "as a JSON object {label text: name}. Use the label's own text, trimmed: without the "
        "required-marker asterisk and without any text of a control nested in the label "
        "(such as option texts). Only labels inside that form count."
    )
    html = wrap_page(rng, title=title, main_html=main, difficulty=ARCHETYPE.difficulty)
    return Generated(html=html, query=query, query_template="label_input_map", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="label_input_map",
    category=Category.FORMS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    description="Label text to control name for one form: for/id, wrapping labels, markers.",
    answer_schema="an object mapping each label text (string) to the control's name (string)",
    generate=generate,
)
