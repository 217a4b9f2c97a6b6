"""The store's customer-service number exists only as pixels in an image.

Skill: checking every static source (visible text, ``tel:`` links, JSON-LD, attributes)
for the requested value, recognising that the customer-service row holds only an
``<img>`` (or an element painted with an inline CSS ``background-image``), and abstaining
with the image URL or element id as evidence instead of answering a visible number.
Shortcuts resisted: the request is word-for-word the solvable ``json_ld`` store-phone
request (``queries.contact_phone``) on the same contact layout; a press-office number is
visible with a ``tel:`` link, a sister store's JSON-LD carries its own telephone (and
sometimes a fax), and the store's own JSON-LD has no telephone at all.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import articles, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import (
    ArchetypeSpec,
    Category,
    Difficulty,
    Generated,
    LimitationInfo,
    LimitReason,
)
from bs4_env.tasks.rng import token


def generate(rng: Random) -> Generated:
    store, other = pools.unique(rng, articles.store_name, 2)
    street, other_street = pools.unique(rng, articles.street_address, 2)
    other_phone, other_fax, press = pools.unique(rng, articles.phone_number, 3)
    image = f"{token(rng, 10)}.png"
    element_id = f"cs-phone-{token(rng, 6)}"
    if rng.random() < 0.5:
        width, height = rng.randint(140, 220), rng.randint(18, 28)
        phone_html = (
            f'<img id="{element_id}" src="/img/contact/{image}" alt="Call us" '
            f'width="{width}" height="{height}">'
        )
    else:
        phone_html = (
            f'<span id="{element_id}" class="phone-graphic" role="img" aria-label="Call us" '
            f"style=\"display:inline-block;width:180px;height:22px;background-image:url('"
            f"/img/contact/{image}')\"></span>"
        )
    entities = [
        articles.store_ld(store, street, None),
        articles.store_ld(
            other, other_street, other_phone, other_fax if rng.random() < 0.6 else None
        ),
    ]
    rng.shuffle(entities)
    scripts = articles.ld_scripts(rng, entities)
    in_head = rng.randint(0, len(scripts))
    main = articles.contact_section(rng, store, street, phone_html, press)
    main += articles.branch_section(other, other_street)
    html = wrap_page(
        rng,
        title=f"Contact {store}",
        main_html=main + "".join(scripts[in_head:]),
        # Same chrome level as the solvable twin (json_ld, medium) so page size tells nothing.
        difficulty=Difficulty.MEDIUM,
        extra_head="\n".join(scripts[:in_head]),
    )
    query = queries.contact_phone(store)
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        truth=None,
        limitation=LimitationInfo(
            reasons=(LimitReason.IMAGE_TEXT,), evidence_tokens=(image, element_id)
        ),
    )


ARCHETYPE = ArchetypeSpec(
    id="image_text",
    category=Category.LIMITATION,
    difficulty=Difficulty.HARD,
    solvable=False,
    version=1,
    phase="phase2",
    description="The requested phone number is only drawn in an image on the contact page.",
    answer_schema=queries.PHONE_SCHEMA,
    generate=generate,
)
