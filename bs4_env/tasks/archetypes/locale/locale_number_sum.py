"""The sum of one column of locale-formatted amounts, written in a stated plain format.

Skill: scoping to the table by its caption and the column by its header, then parsing
locale numbers by hand: removing the grouping character (``.``, ``,``, a narrow no-break
space U+202F or a no-break space U+00A0), turning the decimal comma into a point,
reading a typographic minus (U+2212) as negative, dropping the currency; summing in cents.
Shortcuts resisted: ``float()`` fails or misreads on every seed that is not English;
``str.replace(" ", "")`` leaves U+202F and U+00A0 in place; ``.strip("-")``/``float``
ignore U+2212 so discounts add instead of subtract; the footer shows a total *including
VAT* (not the requested sum) and another table (a previous order) has the same columns;
the unit-price column sits next to the amount column; the page is hard-sized.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import locale_formats as lf
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_WORDS = {
    # caption, item, quantity, unit price, amount, discount, total incl. VAT, VAT rate
    "en": ("Order {}", "Item", "Qty", "Unit price", "Amount", "Discount", "Total incl. VAT", 20),
    "de": ("Bestellung {}", "Artikel", "Menge", "Einzelpreis", "Betrag", "Rabatt",
           "Summe inkl. MwSt.", 19),
    "fr": ("Commande {}", "Article", "Qté", "Prix unitaire", "Montant", "Remise", "Total TTC", 20),
    "es": ("Pedido {}", "Artículo", "Cant.", "Precio unitario", "Importe", "Descuento",
           "Total con IVA", 21),
}  # fmt: skip


def _money(lang: str, cents: int, rng: Random) -> str:
    number = lf.format_amount(lang, cents, rng)
    if lang == "en":
        sign, digits = ("-", number[1:]) if number.startswith("-") else ("", number)
        return f"{sign}${digits}"
    return f"{number}\u00a0€" if rng.random() < 0.6 else f"{number} €"


def _table(rng: Random, lang: str, caption: str) -> tuple[str, int]:
    """An order table and the sum of its amount column, in cents."""
    words = _WORDS[lang]
    rows, total = [], 0
    for name in pools.unique(rng, pools.product_name, rng.randint(3, 7)):
        qty, unit = rng.randint(1, 12), rng.randint(150, 250_000)
        total += qty * unit
        cells = (escape(name), str(qty), _money(lang, unit, rng), _money(lang, qty * unit, rng))
        rows.append("".join(f"<td>{c}</td>" for c in cells))
    if rng.random() < 0.7:
        discount = -rng.randint(100, max(101, total // 5))
        total += discount
        cells = (words[5], "1", _money(lang, discount, rng), _money(lang, discount, rng))
        rows.insert(rng.randint(1, len(rows)), "".join(f"<td>{c}</td>" for c in cells))
    head = "".join(f"<th>{h}</th>" for h in words[1:5])
    gross = total * (100 + words[7]) // 100
    foot = (
        f'<tfoot><tr><td colspan="3">{words[6]}</td><td>{_money(lang, gross, rng)}</td></tr>'
        "</tfoot>"
    )
    body = "".join(f"<tr>{r}</tr>" for r in rows)
    html = (
        f'<table class="order"><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody>{foot}</table>"
    )
    return html, total


def generate(rng: Random) -> Generated:
    lang = rng.choice(sorted(_WORDS))
    words = _WORDS[lang]
    captions = pools.unique(rng, lambda r: words[0].format(r.randint(10000, 99999)), 2)
    tables = [_table(rng, lang, c) for c in captions]
    blocks = [html for html, _ in tables]
    rng.shuffle(blocks)
    html = wrap_page(
        rng,
        title=captions[0],
        main_html="".join(blocks),
        difficulty=ARCHETYPE.difficulty,
        lang=lang,
    )
    query = (
        f"This page is in {lf.LANGUAGE_NAMES[lang]}: in its numbers {lf.NUMBER_RULES[lang]}. "
        f'What is the sum of the "{words[4]}" column over the body rows of the table '
        f'"{captions[0]}" (not its footer)? Answer with a plain number string: "." as the '
        'decimal separator, two decimals, no thousands separator, no currency (e.g. "1234.56"; '
        'a negative sum starts with "-").'
    )
    return Generated(
        html=html,
        query=query,
        query_template="locale_number_sum",
        truth=lf.plain_amount(tables[0][1]),
    )


ARCHETYPE = ArchetypeSpec(
    id="locale_number_sum",
    category=Category.LOCALE,
    difficulty=Difficulty.HARD,
    solvable=True,
    version=5,
    phase="phase2",
    description="Sum of a column of de/fr/es/en amounts (U+202F, U+2212), footer is incl. VAT.",
    answer_schema='a string, the sum as a plain number with two decimals (e.g. "1234.56")',
    generate=generate,
)
