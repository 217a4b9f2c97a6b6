"""A phone number or a table published as an image, with or without a text version.

The store's customer-service number as an ``<img>`` (or an element painted by a CSS
``background-image``), or a titled table as a screenshot in a ``<figure>``. On an
``image_text`` page nothing else holds the data (the ``alt`` only says "Call us" or names
the table); on its solvable twin ``image_text_alternative`` the same image comes with a
text version: an ``alt``/``aria-label`` holding the number or a ``tel:`` link beside it,
the same table in HTML under the image, in a ``<details>`` box or in the
``<figcaption>``. Half ``contact_phone`` and half ``table_as_dicts`` requests each, with
the shared layouts of ``slots`` and ``slot_tables``.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import articles
from bs4_env.tasks.rng import token

TEMPLATES = ("contact_phone", "table_as_dicts")
_PHONE_LABELS = ("Call us", "Phone number", "Customer service line")


def phone_image(rng: Random, phone: str | None) -> tuple[str, tuple[str, ...]]:
    """The number's image; ``phone`` goes into its text alternative or a ``tel:`` link."""
    element_id = f"cs-phone-{token(rng, 6)}"
    image = f"{token(rng, 10)}.png"
    in_label = phone is not None and rng.random() < 0.5
    label = escape(phone) if in_label and phone is not None else rng.choice(_PHONE_LABELS)
    if rng.random() < 0.5:
        width, height = rng.randint(140, 220), rng.randint(18, 28)
        graphic = (
            f'<img id="{element_id}" src="/img/contact/{image}" alt="{label}" '
            f'width="{width}" height="{height}">'
        )
    else:
        graphic = (
            f'<span id="{element_id}" class="phone-graphic" role="img" aria-label="{label}" '
            f"style=\"display:inline-block;width:180px;height:22px;background-image:url('"
            f"/img/contact/{image}')\"></span>"
        )
    # A call-back link is as common on either page; the number's own ``tel:`` link has the
    # shape of the press office's on every contact page.
    link = ""
    if phone is not None and not in_label:
        link = f' <a href="{articles.tel_href(phone)}">{escape(phone)}</a>'
    if rng.random() < 0.5:
        callback = f"/contact/callback?ref={token(rng, 6)}"
        link += f' <a class="call" href="{callback}">Request a call back</a>'
    return graphic + link, (element_id, image)


def table_image(rng: Random, caption: str, table: str | None) -> tuple[str, tuple[str, ...]]:
    """The table's image; ``table`` goes under it, into a ``<details>`` or the figcaption."""
    element_id = f"table-img-{token(rng, 6)}"
    image = f"{token(rng, 10)}.png"
    where = rng.choice(("below", "below", "details", "figcaption"))
    alt = rng.choice((caption, f"Table: {caption}", f"{caption} (screenshot)"))
    note = rng.choice(("Click to enlarge.", "Figures as of the last update.", escape(caption)))
    caption_body = table if table is not None and where == "figcaption" else note
    figure = (
        f'<figure class="table-image"><img id="{element_id}" src="/img/tables/{image}" '
        f'alt="{escape(alt)}" width="{rng.choice((640, 720, 800))}" '
        f'height="{rng.choice((240, 320, 400))}" loading="lazy">'
        f"<figcaption>{caption_body}</figcaption></figure>"
    )
    after = ""
    if where == "details":
        # A details box is as common under an image without a text version.
        body = table if table is not None else "<p>Download the spreadsheet from your account.</p>"
        label = "Text version of the table" if table is not None else "About these figures"
        after = f"<details><summary>{label}</summary>{body}</details>"
    elif where == "below" and table is not None:
        after = f"<p>Text version:</p>{table}"
    return figure + after, (element_id, image)
