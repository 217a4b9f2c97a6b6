"""Form markup helpers shared by the ``forms`` archetypes.

Field names vary per seed (snake_case, camelCase, prefixed) so that a list of field names
is rarely the same twice; ids are seed-random and never equal to the name, so code that
confuses ``id`` with ``name`` answers wrongly.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.rng import token


@dataclass(frozen=True)
class FieldSpec:
    """A form control: its visible label, base name and kind (an input type, select, textarea)."""

    label: str
    base: str
    kind: str


FIELD_POOL: tuple[FieldSpec, ...] = (
    FieldSpec("First name", "first_name", "text"),
    FieldSpec("Last name", "last_name", "text"),
    FieldSpec("Full name", "full_name", "text"),
    FieldSpec("Email address", "email", "email"),
    FieldSpec("Phone number", "phone", "tel"),
    FieldSpec("Company", "company", "text"),
    FieldSpec("Job title", "job_title", "text"),
    FieldSpec("Street address", "street", "text"),
    FieldSpec("City", "city", "text"),
    FieldSpec("Postal code", "postal_code", "text"),
    FieldSpec("Country", "country", "select"),
    FieldSpec("Date of birth", "birth_date", "date"),
    FieldSpec("Website", "website", "url"),
    FieldSpec("Team size", "team_size", "number"),
    FieldSpec("Preferred contact time", "contact_time", "select"),
    FieldSpec("Topic", "topic", "select"),
    FieldSpec("Message", "message", "textarea"),
    FieldSpec("Delivery notes", "delivery_notes", "textarea"),
    FieldSpec("Order number", "order_ref", "text"),
    FieldSpec("Start date", "start_date", "date"),
    FieldSpec("Budget", "budget", "number"),
    FieldSpec("Send me product updates", "opt_in", "checkbox"),
    FieldSpec("Accept the terms", "accept_terms", "checkbox"),
    FieldSpec("Upload a file", "attachment", "file"),
)

_PREFIXES = ("", "", "contact_", "billing_", "customer_", "form_", "user_", "ship_", "req_")


def field_name(rng: Random, base: str) -> str:
    """A seed-varied spelling of a base field name."""
    style = rng.randrange(4)
    if style == 0:
        return base
    if style == 1:
        head, *rest = base.split("_")
        return head + "".join(part.capitalize() for part in rest)
    if style == 2:
        return f"{rng.choice(_PREFIXES[2:])}{base}"
    return f"{rng.choice(('contact', 'lead', 'profile', 'order'))}[{base}]"


def control_id(rng: Random) -> str:
    return f"{rng.choice(('f', 'fld', 'in', 'ctl'))}-{token(rng, 5)}"


def _attrs(pairs: list[tuple[str, str | None]]) -> str:
    return "".join(f' {key}="{escape(value)}"' if value is not None else "" for key, value in pairs)


def option_list(rng: Random, base: str) -> str:
    """A few plausible ``<option>`` tags for a select of the given base name."""
    if base == "country":
        values = [(city.lower()[:3], city) for city in rng.sample(pools.CITIES, 4)]
    elif base == "contact_time":
        values = [(v.lower(), v) for v in ("Morning", "Afternoon", "Evening")]
    else:
        values = [(d.lower(), d) for d in rng.sample(pools.DEPARTMENTS, 4)]
    inner = "".join(f'<option value="{v}">{escape(t)}</option>' for v, t in values)
    return f'<option value="">Choose…</option>{inner}'


def control(
    rng: Random,
    kind: str,
    name: str | None,
    *,
    element_id: str | None = None,
    base: str = "",
    typed: bool = True,
    value: str | None = None,
) -> str:
    """Markup of one control; ``typed=False`` leaves out the ``type`` attribute of a text input."""
    if kind == "select":
        attrs = _attrs([("name", name), ("id", element_id)])
        return f"<select{attrs}>{option_list(rng, base)}</select>"
    if kind == "textarea":
        rows = str(rng.randint(3, 6))
        return (
            f"<textarea{_attrs([('name', name), ('id', element_id), ('rows', rows)])}></textarea>"
        )
    input_type = kind if typed or kind != "text" else None
    extra = " required" if rng.random() < 0.3 else ""
    attrs = _attrs([("type", input_type), ("name", name), ("id", element_id), ("value", value)])
    return f"<input{attrs}{extra}>"


def search_form() -> str:
    return (
        '<form class="site-search" action="/search" method="get" role="search">'
        '<label for="q-top">Search</label><input type="search" id="q-top" name="q">'
        '<input type="hidden" name="scope" value="all"><button type="submit">Search</button></form>'
    )


def newsletter_form(rng: Random) -> str:
    return (
        f'<section class="newsletter-signup"><h3>Newsletter</h3>'
        f'<form id="nl-{token(rng, 5)}" action="/newsletter/join" method="post">'
        f'<label for="nl-mail">Email address</label>'
        f'<input type="email" id="nl-mail" name="{field_name(rng, "email")}">'
        f'<input type="hidden" name="list" value="{token(rng, 4)}">'
        '<button type="submit">Sign up</button></form></section>'
    )
