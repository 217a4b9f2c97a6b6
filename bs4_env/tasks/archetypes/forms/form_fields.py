"""The named fields of one form, with their types, in document order.

Skill: locating one ``<form>`` (by id, action URL or its heading) and walking its controls
with ``find_all(["input", "select", "textarea"])``, reading ``type`` with a default
(``tag.get("type", "text")``) and filtering out submit buttons and unnamed inputs.
Shortcuts resisted: the header search form, a newsletter form and a near-duplicate form
(similar heading and fields, different names) sit on the same page, so ``find_all("input")``
over the whole page or the first ``<form>`` is wrong; some text inputs have no ``type``
attribute, a named ``<input type="submit">`` and an unnamed checkbox must be skipped, and
hidden inputs count.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import forms, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_TITLES = (
    "Contact us",
    "Request a quote",
    "Shipping address",
    "Billing address",
    "Book a demo",
    "Job application",
    "Support ticket",
    "Event registration",
    "Return request",
    "Wholesale inquiry",
)
_HIDDEN = (
    "form_id",
    "source",
    "campaign",
    "locale",
    "referrer",
    "step",
    "utm_medium",
    "ab_variant",
)


def _form(rng: Random, title: str) -> tuple[str, str, str, list[dict[str, str]]]:
    """(markup, id, action, fields) of one form with a heading."""
    slug = title.lower().replace(" ", "-")
    form_id = f"{slug}-{token(rng, 5)}"
    action = f"/forms/{slug.split('-')[0]}/{token(rng, 8)}"
    specs = rng.sample(forms.FIELD_POOL, rng.randint(3, 7))
    rows: list[tuple[str, dict[str, str] | None]] = []
    for spec in specs:
        name = forms.field_name(rng, spec.base)
        element_id = forms.control_id(rng)
        typed = spec.kind != "text" or rng.random() < 0.5
        markup = forms.control(
            rng, spec.kind, name, element_id=element_id, base=spec.base, typed=typed
        )
        if spec.kind == "checkbox":
            row = f'<div class="form-check"><label>{markup} {escape(spec.label)}</label></div>'
        else:
            row = (
                f'<div class="form-row"><label for="{element_id}">{escape(spec.label)}</label>'
                f"{markup}</div>"
            )
        rows.append((row, {"name": name, "type": spec.kind}))
    for name in rng.sample(_HIDDEN, rng.randint(1, 2)):
        hidden = f'<input type="hidden" name="{name}" value="{token(rng, 6)}">'
        rows.insert(rng.randint(0, len(rows)), (hidden, {"name": name, "type": "hidden"}))
    if rng.random() < 0.7:
        # An unnamed control is never submitted, so it is not a field of the form.
        unnamed = (
            f'<div class="form-check"><label><input type="checkbox" id="{forms.control_id(rng)}">'
            " Show optional fields</label></div>"
        )
        rows.insert(rng.randint(0, len(rows)), (unnamed, None))
    submit = rng.choice(
        (
            f'<input type="submit" name="op" value="{escape(title)}">',
            '<button type="submit" name="action" value="send">Send</button>',
            '<input type="submit" value="Submit">',
        )
    )
    method = rng.choice(("post", "POST", "get"))
    body = "".join(row for row, _ in rows)
    markup = (
        f'<section class="form-block"><h2>{escape(title)}</h2>'
        f'<form id="{form_id}" class="site-form" action="{action}" method="{method}">'
        f'{body}<div class="actions">{submit}</div></form></section>'
    )
    return markup, form_id, action, [field for _, field in rows if field is not None]


def generate(rng: Random) -> Generated:
    title, decoy_title = rng.sample(_TITLES, 2)
    target, form_id, action, fields = _form(rng, title)
    decoy = _form(rng, decoy_title)[0]
    blocks = [target, decoy, forms.newsletter_form(rng)]
    rng.shuffle(blocks)
    main = forms.search_form() + f"<p>{escape(pools.sentence(rng, 10))}</p>" + "".join(blocks)
    how = rng.randrange(3)
    if how == 0:
        where = f'the form with id "{form_id}"'
    elif how == 1:
        where = f'the form whose action is "{action}"'
    else:
        where = f'the form under the heading "{title}"'
    query = (
        f"List the fields of {where} in document order, as a list of objects with keys "
        '"name" and "type". Count <input>, <select> (type "select") and <textarea> '
        '(type "textarea") elements; an <input> without a type attribute has type "text", and '
        'hidden inputs count (type "hidden"). Skip submit buttons and controls without a name.'
    )
    html = wrap_page(rng, title=title, main_html=main, difficulty=ARCHETYPE.difficulty)
    return Generated(html=html, query=query, query_template="form_fields", truth=fields)


ARCHETYPE = ArchetypeSpec(
    id="form_fields",
    category=Category.FORMS,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=6,
    description="Named fields and types of one form among search, newsletter and look-alike forms.",
    answer_schema='a list of {"name": string, "type": string} objects in document order',
    generate=generate,
)
