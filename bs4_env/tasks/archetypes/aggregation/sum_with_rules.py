"""Sum one column of an orders table over the rows whose status is exactly the stated one.

Skill: finding the table by its caption, reading each body row's cells by header, keeping
rows whose status text equals the requested status, taking the current value of a cell
(the one outside ``<del>``/``<s>``) and parsing numbers with thousands separators.
Shortcuts resisted: summing every row (or every number on the page) ignores the rule; a
look-alike status containing the requested word ("Partially shipped" for "Shipped") is
on every page, so substring tests add its rows; crossed-out old amounts sit in the same
cell as the current ones, so reading all digits of the cell (or ``get_text()``) mixes
them; the footer's "Page total" row sums every row; a second orders table for another
month uses the same markup and statuses.
"""

from __future__ import annotations

import re
from html import escape
from random import Random

from bs4_env.tasks.html import aggregation_pools as agg
from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

Row = tuple[str, str, str, int, int, int | None, int | None]
# (order, customer, status, qty, cents, old qty or None, old cents or None)

_HEADERS = ("Order", "Customer", "Status", "Qty", "Total")
AMOUNT_SCHEMA = (
    "a number: the sum as a JSON number rounded to 2 decimals, without currency sign or "
    "thousands separators (e.g. 10.5 for $10.50)"
)
UNITS_SCHEMA = "an integer: the sum of the quantities (e.g. 1)"


def _statuses(rng: Random, target: str, n: int) -> list[str]:
    """``n`` row statuses: at least two of ``target`` and one of its look-alike."""
    others = [s for s in agg.STATUS_LOOKALIKES if s != target] + list(agg.OTHER_STATUSES)
    chosen = [target, target, agg.STATUS_LOOKALIKES[target]]
    weights = [3] + [1] * len(others) + [1]
    chosen += rng.choices([target, *others, agg.STATUS_LOOKALIKES[target]], weights, k=n - 3)
    rng.shuffle(chosen)
    return chosen


def _rows(rng: Random, target: str) -> list[Row]:
    n = rng.randint(8, 18)
    rows: list[Row] = []
    for status in _statuses(rng, target, n):
        cents = rng.randint(2_000, 350_000)
        old_cents = cents + rng.randint(500, 40_000) if rng.random() < 0.3 else None
        qty = rng.randint(1, 40)
        old_qty = qty + rng.randint(1, 9) if rng.random() < 0.2 else None
        order = f"#{rng.randint(100_000, 999_999)}"
        rows.append((order, pools.person_name(rng), status, qty, cents, old_qty, old_cents))
    # Every rule must matter: a matching row with an amended (crossed-out) amount over 1,000.
    at = next(i for i, r in enumerate(rows) if r[2] == target)
    order, name, status, qty, cents, old_qty, _ = rows[at]
    cents = max(cents, rng.randint(100_000, 350_000))
    rows[at] = (order, name, status, qty, cents, old_qty, cents + rng.randint(500, 40_000))
    return rows


def _amended(rng: Random, current: str, old: str | None) -> str:
    if old is None:
        return escape(current)
    struck = rng.choice(("del", "s"))
    now = rng.choice(("<ins>{}</ins>", '<span class="now">{}</span>', "{}")).format(current)
    return f"<{struck}>{escape(old)}</{struck}> {now}"


def _table(rng: Random, caption: str, rows: list[Row], symbol: str) -> str:
    body = []
    for order, name, status, qty, cents, old_qty, old_cents in rows:
        slug = re.sub(r"[^a-z]+", "-", status.lower())
        old_total = None if old_cents is None else agg.money(old_cents, symbol)
        cells = [
            escape(order),
            escape(name),
            f'<span class="status status-{slug}">{escape(status)}</span>',
            _amended(rng, str(qty), None if old_qty is None else str(old_qty)),
            _amended(rng, agg.money(cents, symbol), old_total),
        ]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in _HEADERS)
    units = sum(r[3] for r in rows)
    total = agg.money(sum(r[4] for r in rows), symbol)
    foot = f'<tr><td colspan="3">Page total</td><td>{units}</td><td>{total}</td></tr>'
    return (
        f'<section class="orders"><h2>{escape(caption)}</h2><table class="orders-table">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody>"
        f"<tfoot>{foot}</tfoot></table></section>"
    )


def generate(rng: Random) -> Generated:
    month, other = rng.sample(pools.MONTHS, 2)
    year = rng.randint(2021, 2026)
    caption, decoy_caption = f"Orders, {month} {year}", f"Orders, {other} {year}"
    target = rng.choice(list(agg.STATUS_LOOKALIKES))
    symbol = rng.choice(("$", "£"))
    rows = _rows(rng, target)
    tables = [_table(rng, caption, rows, symbol)]
    tables.append(_table(rng, decoy_caption, _rows(rng, target), symbol))
    rng.shuffle(tables)
    html = wrap_page(
        rng,
        title="Order history",
        main_html="<h1>Order history</h1>" + "\n".join(tables),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Account", "Orders"),
    )
    matching = [r for r in rows if r[2] == target]
    rule = (
        f'over the orders whose status is exactly "{target}" (other statuses do not count). '
        "Where a value is crossed out and replaced, use the current value."
    )
    if rng.random() < 0.35:
        query = f'In the table "{caption}", what is the sum of the Qty column {rule}'
        truth: int | float = sum(r[3] for r in matching)
        schema = UNITS_SCHEMA
    else:
        query = f'In the table "{caption}", what is the sum of the Total column {rule}'
        truth = sum(r[4] for r in matching) / 100
        schema = AMOUNT_SCHEMA
    return Generated(
        html=html,
        query=query,
        query_template="sum_with_rules",
        truth=truth,
        answer_schema=schema,
    )


ARCHETYPE = ArchetypeSpec(
    id="sum_with_rules",
    category=Category.AGGREGATION,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=5,
    phase="phase2",
    description="Sum Qty or Total over rows of one status; struck-out values, 1,000 separators.",
    answer_schema=f"{AMOUNT_SCHEMA}; or, when the request sums the Qty column, {UNITS_SCHEMA}",
    generate=generate,
)
