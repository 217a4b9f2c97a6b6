"""Links of one section selected by how their ``href`` ends or begins (``$=``, ``^=``).

Skill: CSS attribute selectors scoped to one section found by its heading:
``section.select('a[href$=".pdf"]')`` for documents, ``section.select('a[href^="mailto:"]')``
for e-mail links (then the address without the scheme and query).
Shortcuts resisted: every section (and the page chrome) has PDF or mailto links of its
own, so a page-wide selection over-collects; inside the section, look-alikes must be
left out: ``.pdf.zip`` archives, ``.docx``/``.epub`` files, a folder path containing
``/pdf/``, an HTML page whose link text says "(PDF)", ``tel:`` links, contact-form links
and an address written as plain text; some mailto links carry ``?subject=``.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.queries import Query
from bs4_env.tasks.rng import token

_KINDS = ("manual", "quick-start", "safety-sheet", "warranty", "datasheet", "spare-parts")
Section = tuple[str, list[str]]  # (html, wanted values in page order)


def _slug(text: str) -> str:
    return "-".join("".join(ch for ch in word if ch.isalnum()) for word in text.lower().split())


def _pdf_href(rng: Random, slug: str, kind: str) -> str:
    style = rng.randrange(3)
    if style == 0:
        return f"/files/{slug}-{kind}-{token(rng, 5)}.pdf"
    if style == 1:
        return f"https://cdn-{token(rng, 4)}.example/docs/{slug}/{kind}.pdf"
    return f"../manuals/{slug}_{kind}_{token(rng, 5)}.pdf"


def _decoy_link(rng: Random, slug: str, kind: str) -> str:
    label = kind.replace("-", " ").capitalize()
    href, text = rng.choice(
        (
            (f"/files/{slug}-{kind}-{token(rng, 5)}.pdf.zip", f"{label} (ZIP)"),
            (f"/files/{slug}-{kind}-{token(rng, 5)}.docx", f"{label} (Word)"),
            (f"/docs/{slug}/pdf/", "All PDF documents"),
            (f"/manuals/{slug}-{kind}-{token(rng, 4)}.html", f"{label} (PDF)"),
            (f"/files/{slug}-{kind}-{token(rng, 5)}.epub", f"{label} (e-book)"),
        )
    )
    return f'<a href="{href}">{escape(text)}</a>'


def _downloads(rng: Random, product: str) -> Section:
    slug = _slug(product)
    links: list[tuple[str, str | None]] = []
    for kind in rng.sample(_KINDS, rng.randint(1, 4)):
        href = _pdf_href(rng, slug, kind)
        size = f"{rng.randint(1, 40) / 10} MB"
        label = kind.replace("-", " ").capitalize()
        links.append((f'<a href="{href}">{escape(label)} (PDF, {size})</a>', href))
    for kind in rng.sample(_KINDS, rng.randint(2, 4)):
        links.append((_decoy_link(rng, slug, kind), None))
    rng.shuffle(links)
    items = "".join(f"<li>{link}</li>" for link, _ in links)
    html = (
        f'<section class="support-block" id="support-{token(rng, 5)}">'
        f"<h2>{escape(product)} support</h2><p>{escape(pools.sentence(rng, 10))}</p>"
        f'<ul class="downloads">{items}</ul></section>'
    )
    return html, [href for _, href in links if href is not None]


def _contacts(rng: Random, department: str, company: str) -> Section:
    domain = "".join(ch for ch in company.lower() if ch.isalnum()) + ".example"
    rows: list[tuple[str, str | None]] = []
    for name in pools.unique(rng, pools.person_name, rng.randint(2, 4)):
        first, last = name.lower().split(" ", 1)
        address = f"{first}.{last}@{domain}"
        query = f"?subject=Order%20{rng.randint(1000, 99999)}" if rng.random() < 0.4 else ""
        phone = f"+{rng.randint(1, 49)}{rng.randint(10**8, 10**9 - 1)}"
        rows.append(
            (
                f'<li><span class="name">{escape(name)}</span> · <a href="mailto:{address}'
                f'{query}">Email {escape(name.split()[0])}</a> · <a href="tel:{phone}">Call</a>'
                "</li>",
                address,
            )
        )
    rows.append((f'<li><a href="/contact/{token(rng, 6)}">Contact form</a></li>', None))
    plain = f"{rng.choice(('press', 'info', 'jobs'))}@{domain}"
    rows.append((f"<li>Or write to {plain} (not monitored daily)</li>", None))
    rng.shuffle(rows)
    html = (
        f'<section class="contacts" id="team-{token(rng, 5)}"><h2>{escape(department)} '
        f'contacts</h2><ul class="people">{"".join(row for row, _ in rows)}</ul></section>'
    )
    return html, [address for _, address in rows if address is not None]


def generate(rng: Random) -> Generated:
    if rng.random() < 0.5:
        names = pools.unique(rng, pools.product_name, rng.randint(2, 4))
        sections = [_downloads(rng, name) for name in names]
        target = rng.randrange(len(sections))
        query = Query(
            template="links_with_suffix",
            text=(
                f'In the "{names[target]} support" section, list the href of every link whose '
                'href ends with ".pdf", in page order.'
            ),
            answer_schema=(
                "a list of strings, the href attribute values exactly as written, in page "
                'order (e.g. ["/files/manual-x7.pdf"])'
            ),
        )
        title = f"Support: {names[target]}"
    else:
        company = rng.choice(pools.COMPANIES)
        departments = rng.sample(pools.DEPARTMENTS, rng.randint(2, 4))
        sections = [_contacts(rng, department, company) for department in departments]
        target = rng.randrange(len(sections))
        query = Query(
            template="mailto_addresses",
            text=(
                f'In the "{departments[target]} contacts" section, list the e-mail address of '
                'every mailto: link, in page order. Give the address only, without "mailto:" '
                'and without any "?subject=..." part.'
            ),
            answer_schema=(
                'a list of strings, the e-mail addresses in page order (e.g. ["ada.costa@'
                'helix.example"])'
            ),
        )
        title = f"Contact {company}"
    main = "\n".join(html for html, _ in sections)
    html = wrap_page(rng, title=title, main_html=main, difficulty=ARCHETYPE.difficulty)
    return Generated(
        html=html,
        query=query.text,
        query_template=query.template,
        answer_schema=query.answer_schema,
        truth=sections[target][1],
    )


ARCHETYPE = ArchetypeSpec(
    id="attribute_selector_links",
    category=Category.SELECTORS,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="PDF hrefs or mailto addresses of one section via [href$=] / [href^=].",
    answer_schema="a list of strings, in the shape the request gives",
    generate=generate,
)
