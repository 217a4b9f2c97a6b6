"""The options (value and text) of one ``<select>``, found by its label or its name.

Skill: resolving a ``<label for>`` to its ``<select>`` (or ``find("select", attrs={"name": ...})``),
then ``find_all("option")`` through ``<optgroup>`` wrappers, applying the HTML rule that an
option without a ``value`` attribute submits its text, and dropping the empty placeholder.
Shortcuts resisted: a second select on the same form shares most options in another order
and subset, so ``soup.find("select")`` or all options on the page is wrong; optgroup labels
are not options; entity-encoded texts (``&amp;``) must be decoded; the ``selected`` option is
just one of the options.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import forms, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_COUNTRIES = (
    ("AT", "Austria"),
    ("BE", "Belgium"),
    ("BA", "Bosnia & Herzegovina"),
    ("BR", "Brazil"),
    ("CA", "Canada"),
    ("CL", "Chile"),
    ("CZ", "Czechia"),
    ("DK", "Denmark"),
    ("EE", "Estonia"),
    ("FI", "Finland"),
    ("GH", "Ghana"),
    ("IE", "Ireland"),
    ("JP", "Japan"),
    ("KE", "Kenya"),
    ("MX", "Mexico"),
    ("NO", "Norway"),
    ("PE", "Peru"),
    ("PT", "Portugal"),
    ("SN", "Senegal"),
    ("KR", "South Korea"),
    ("TT", "Trinidad & Tobago"),
    ("UY", "Uruguay"),
    ("VN", "Vietnam"),
)
_GROUPS = {
    "country": ("Frequently used", "Other countries"),
    "store": ("Stores", "Parcel lockers"),
    "model": ("In stock", "Pre-order"),
}
_LABELS = {
    "country": (("Shipping country", "ship_country"), ("Billing country", "bill_country")),
    "store": (("Pickup store", "pickup_store"), ("Return store", "return_store")),
    "model": (("Choose a model", "model"), ("Compare with", "compare_model")),
}
_PLACEHOLDER = {"country": "Select a country…", "store": "Pick a store", "model": "Choose…"}


def _pool(rng: Random, domain: str) -> list[tuple[str, str]]:
    """(value, text) candidates for one domain; values are codes that differ from texts."""
    if domain == "country":
        return list(_COUNTRIES)
    if domain == "store":
        cities = rng.sample(pools.CITIES, 12)
        return [
            (f"st-{token(rng, 4)}", f"{city} – {rng.choice(pools.LAST_NAMES)}plein")
            for city in cities
        ]
    names = pools.unique(rng, pools.product_name, 12)
    return [(pools.sku(rng), name) for name in names]


def _select(
    rng: Random, domain: str, label: str, name: str, items: list[tuple[str, str]]
) -> tuple[str, list[dict[str, str]]]:
    """Markup of a labelled select, and its options as the query defines them."""
    element_id = forms.control_id(rng)
    truth: list[dict[str, str]] = []
    tags: list[str] = []
    bare = rng.randrange(len(items)) if rng.random() < 0.8 else -1
    chosen = rng.randrange(len(items))
    for index, (value, text) in enumerate(items):
        selected = " selected" if index == chosen else ""
        pad = rng.choice(("", " ", "\n      "))
        if index == bare:
            # No value attribute: the browser submits the option's text instead.
            tags.append(f"<option{selected}>{pad}{escape(text)}{pad}</option>")
            truth.append({"value": text, "text": text})
        else:
            tags.append(f'<option value="{escape(value)}"{selected}>{pad}{escape(text)}</option>')
            truth.append({"value": value, "text": text})
    if rng.random() < 0.7:
        cut = rng.randint(1, len(tags) - 1)
        first, second = _GROUPS[domain]
        tags = [
            f'<optgroup label="{first}">{"".join(tags[:cut])}</optgroup>',
            f'<optgroup label="{second}">{"".join(tags[cut:])}</optgroup>',
        ]
    placeholder = f'<option value="" disabled>{_PLACEHOLDER[domain]}</option>'
    markup = (
        f'<div class="form-row"><label for="{element_id}">{escape(label)}</label>\n'
        f'<select id="{element_id}" name="{name}" class="form-select">\n{placeholder}\n'
        + "\n".join(tags)
        + "\n</select></div>"
    )
    return markup, truth


def generate(rng: Random) -> Generated:
    domain = rng.choice(tuple(_LABELS))
    pool = _pool(rng, domain)
    (label, base), (decoy_label, decoy_base) = rng.sample(_LABELS[domain], 2)
    prefix = rng.choice(("", "", "checkout_", "order_", "f_"))
    name, decoy_name = f"{prefix}{base}", f"{prefix}{decoy_base}"
    picked = rng.sample(pool, rng.randint(4, 8))
    overlap = rng.sample(picked, max(2, len(picked) - 2))
    rest = [item for item in pool if item not in picked]
    decoy_items = overlap + rng.sample(rest, rng.randint(1, 3))
    rng.shuffle(decoy_items)
    if domain == "country":
        picked.sort(key=lambda item: item[1])
        decoy_items.sort(key=lambda item: item[1])
    target, truth = _select(rng, domain, label, name, picked)
    decoy, _ = _select(rng, domain, decoy_label, decoy_name, decoy_items)
    rows = [target, decoy]
    rng.shuffle(rows)
    main = (
        f"<h1>Checkout</h1><p>{escape(pools.sentence(rng, 9))}</p>"
        f'<form id="checkout-{token(rng, 5)}" action="/checkout/{token(rng, 6)}" method="post">'
        + "".join(rows)
        + '<button type="submit">Continue</button></form>'
    )
    if rng.random() < 0.5:
        where = f'the dropdown labelled "{label}"'
    else:
        where = f'the <select> named "{name}"'
    query = (
        f"List the options of {where} in document order, as a list of objects with keys "
        '"value" and "text". Leave out placeholder options whose value is empty, and do not '
        "list optgroup labels. For an option without a value attribute, its value is its "
        "text (as an HTML form would submit it)."
    )
    html = wrap_page(rng, title="Checkout", main_html=main, difficulty=ARCHETYPE.difficulty)
    return Generated(html=html, query=query, query_template="select_options", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="select_options",
    category=Category.FORMS,
    difficulty=Difficulty.EASY,
    solvable=True,
    version=6,
    description="Options of one select: optgroups, placeholder, value-less option, look-alike.",
    answer_schema='a list of {"value": string, "text": string} objects in document order',
    generate=generate,
)
