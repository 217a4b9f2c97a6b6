"""A store's customer-service number on a contact page marked up with microdata.

Skill: finding the store's own item (the ``itemscope`` whose ``name`` is the requested
store) or its "Customer service" row, and reading the telephone that belongs to that item
itself, not to an item nested in it; answering the number as displayed.
Shortcuts resisted: this page answers the shared ``contact_phone`` request (the same
wording, store names and contact layout as the ``image_text`` and ``login_required``
limitation pages); the press office is a nested ``ContactPoint`` item with its own
``itemprop="telephone"``, placed before the store's number on about half the seeds (so
"the first ``itemprop=telephone``" is wrong); a sister store's item carries another
telephone and may come first; a fax number sits in the list; some telephone elements carry
a digits-only ``content`` value that differs from the displayed number.
"""

from __future__ import annotations

from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import articles, microdata, pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated


def generate(rng: Random) -> Generated:
    store, other = pools.unique(rng, articles.store_name, 2)
    street, other_street = pools.unique(rng, articles.street_address, 2)
    phone, fax, other_phone, press = pools.unique(rng, articles.phone_number, 4)
    with_fax = fax if rng.random() < 0.5 else None
    blocks = [
        microdata.store_contact(rng, store, street, phone, press, with_fax),
        microdata.branch_store(rng, other, other_street, other_phone),
    ]
    rng.shuffle(blocks)
    scripts: list[str] = []
    if rng.random() < 0.5:
        # Like the other contact pages, sometimes JSON-LD for the stores (the store's own
        # entity then carries the same number, or none).
        entities = [
            articles.store_ld(store, street, phone if rng.random() < 0.4 else None),
            articles.store_ld(other, other_street, other_phone),
        ]
        rng.shuffle(entities)
        scripts = articles.ld_scripts(rng, entities)
    html = wrap_page(
        rng,
        title=f"Contact {store}",
        main_html="\n".join(blocks + scripts),
        # The chrome level of every contact-phone page (page size tells nothing).
        difficulty=Difficulty.MEDIUM,
        breadcrumbs=("Home", "Stores", store.split(" ")[0]),
    )
    query = queries.contact_phone(store)
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        answer_schema=query.answer_schema,
        truth=phone,
    )


ARCHETYPE = ArchetypeSpec(
    id="microdata_contact_phone",
    category=Category.STRUCTURED,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="A store's phone in microdata beside a nested press ContactPoint and a branch.",
    answer_schema=queries.PHONE_SCHEMA,
    generate=generate,
)
