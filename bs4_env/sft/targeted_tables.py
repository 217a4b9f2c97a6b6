"""Targeted programs for table requests: find the titled table, then read it as asked.

The table is reached from this page's own title for it (its ``<caption>``, or the heading
before it) and read with one small ``text`` helper: rows as objects keyed by the header, rows
as lists, one column by its header label, a merged-cell grid, a column sum (with the page's
decimal mark, a status filter, crossed-out values dropped) or distinct values over tables.
Which reading fits is decided by running each candidate here against the truth.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from random import Random

from bs4 import BeautifulSoup, Tag

from bs4_env.sft import locate
from bs4_env.sft.plan import Plan, host_run, soup_line
from bs4_env.sft.targeted_common import TEXT_HELPER, checked_plan, find_call, literals, titled
from bs4_env.tasks.model import Task

_ROWS = (
    'rows = [tr for tr in table.find_all("tr") if tr.find_parent("tfoot") is None]',
    'rows = [tr for tr in table.select("tr") if not tr.find_parent("tfoot")]',
)
_CELLS = '{tr}.find_all(["th", "td"])'
_HEADER = 'header = [text(c) for c in rows[0].find_all(["th", "td"])]'
_INSPECT = [
    "for tr in rows[:4]:",
    '    print([text(c) for c in tr.find_all(["th", "td"])])',
    "print(len(rows), 'rows')",
]
_GRID = [
    "grid, carry = [], {}",
    "for tr in rows:",
    '    row, cells = [], list(tr.find_all(["th", "td"]))',
    "    while cells or any(col >= len(row) for col in carry):",
    "        if len(row) in carry:",
    "            left, value = carry.pop(len(row))",
    "            if left > 1:",
    "                carry[len(row)] = (left - 1, value)",
    "            row.append(value)",
    "            continue",
    "        cell = cells.pop(0)",
    "        down = int(cell.get('rowspan', 1))",
    "        for _ in range(int(cell.get('colspan', 1))):",
    "            if down > 1:",
    "                carry[len(row)] = (down - 1, text(cell))",
    "            row.append(text(cell))",
    "    grid.append(row)",
    "print(json.dumps(grid, ensure_ascii=False))",
]


def _table_ref(soup: BeautifulSoup, literal: str) -> tuple[Tag, str] | None:
    """The element titling a table with this literal, and how to go from it to the table."""
    for caption in titled(soup, literal, ("caption",)):
        if caption.find_parent("table") is not None:
            return caption, "find_parent"
    for title in titled(soup, literal):
        if title.name != "caption" and title.find_next("table") is not None:
            return title, "find_next"
    return None


def _table_lines(soup: BeautifulSoup, literal: str) -> list[str] | None:
    """Lines that bind ``table`` to the table this literal titles."""
    if (ref := _table_ref(soup, literal)) is None:
        return None
    tag, how = ref
    if how == "find_parent":
        return [f'table = {find_call(tag, literal)}.find_parent("table")']
    return [f"title = {find_call(tag, literal)}", 'table = title.find_next("table")']


def _tables(task: Task) -> list[tuple[str, list[str]]]:
    soup = locate.parse(task.html)
    found = [(lit, _table_lines(soup, lit)) for lit in literals(task.query)]
    return [(lit, lines) for lit, lines in found if lines is not None]


def _header_labels(task: Task, lines: list[str], parser: str) -> list[str]:
    """The table's header labels as the page shows them (the first row's cell texts)."""
    show = "print(json.dumps(header))"
    code = "\n".join(
        ["import json", soup_line(parser), *lines, TEXT_HELPER, _ROWS[0], _HEADER, show]
    )
    out = host_run(task, code)
    labels = json.loads(out) if out else []
    return [str(v) for v in labels] if isinstance(labels, list) else []


def _bodies(task: Task, header: list[str]) -> Iterator[tuple[list[str], tuple[str, ...]]]:
    """Reading programs (body lines and tags) that may fit the request."""
    yield (
        [
            "answer = [",
            f"    dict(zip(header, [text(c) for c in {_CELLS.format(tr='tr')}]))",
            "    for tr in rows[1:]",
            "]",
            "print(json.dumps(answer, ensure_ascii=False))",
        ],
        ("table", "rows"),
    )
    yield (
        [
            f"answer = [[text(c) for c in {_CELLS.format(tr='tr')}] for tr in rows]",
            "print(json.dumps(answer, ensure_ascii=False))",
        ],
        ("table", "grid"),
    )
    yield _GRID, ("table", "merged")
    query_literals = literals(task.query)
    for label in header:
        if label in query_literals:
            yield (
                [
                    f"col = header.index({label!r})",
                    f"answer = [text({_CELLS.format(tr='tr')}[col]) for tr in rows[1:]]",
                    "print(json.dumps(answer, ensure_ascii=False))",
                ],
                ("table", "column"),
            )
    yield from _sums(task, header, query_literals)


def _number_lines(mark: str, truth: object) -> list[str]:
    if isinstance(truth, int):
        return ["def number(value):", '    return int(value.replace("\\u2212", "-"))']
    keep = f'ch.isdigit() or ch in "-{mark}"'
    tail = '.replace(",", ".")' if mark == "," else ""
    return [
        "def number(value):",
        '    value = value.replace("\\u2212", "-")',
        f'    return float("".join(ch for ch in value if {keep}){tail})',
    ]


def _sums(
    task: Task, header: list[str], query_literals: list[str]
) -> Iterator[tuple[list[str], tuple[str, ...]]]:
    """Column sums: the summed column is one the request names; an optional filter column
    holds one of the request's quoted values; crossed-out values are dropped first."""
    if not isinstance(task.truth, int | float | str) or "sum" not in task.query.lower():
        return
    named = [h for h in header if h and (h in query_literals or f" {h} " in task.query)]
    filters = [(f, v) for f in header for v in query_literals if f and f not in named]
    if isinstance(task.truth, str):
        show = 'print(json.dumps(f"{total:.2f}"))'
    else:
        show = "print(json.dumps(round(total, 2)))"
    for label in named:
        for mark in (",", "."):
            number = _number_lines(mark, task.truth)
            drop = ['for old in table.find_all(["s", "del"]):', "    old.decompose()"]
            cells = _CELLS.format(tr="tr")
            plain = [
                *number,
                f"col = header.index({label!r})",
                f"total = sum(number(text({cells}[col])) for tr in rows[1:])",
                show,
            ]
            yield plain, ("table", "sum")
            for by, value in [(None, None), *filters]:
                where = (
                    []
                    if by is None
                    else [
                        f"    if text(cells[header.index({by!r})]) != {value!r}:",
                        "        continue",
                    ]
                )
                yield (
                    [
                        *drop,
                        *number,
                        f"col = header.index({label!r})",
                        "total = 0",
                        "for tr in rows[1:]:",
                        f"    cells = {cells}",
                        *where,
                        "    total += number(text(cells[col]))",
                        show,
                    ],
                    ("table", "sum", "filter") if by else ("table", "sum"),
                )
            if isinstance(task.truth, int):
                break  # integers have no decimal mark


def _distinct(task: Task, parser: str, rng: Random) -> Plan | None:
    """Distinct values of one column over several titled tables, first occurrence kept."""
    if not isinstance(task.truth, list):
        return None
    soup = locate.parse(task.html)
    titles = [lit for lit in literals(task.query) if _table_ref(soup, lit) is not None]
    refs = [_table_ref(soup, lit) for lit in titles]
    pairs = zip(refs, titles, strict=True)
    kinds = {(ref[0].name, ref[1], ref[0].string == lit) for ref, lit in pairs if ref}
    if len(titles) < 2 or len(kinds) != 1:
        return None  # one loop over the titles needs one way to reach every table
    name, how, exact = kinds.pop()
    match = "name" if exact else "lambda s: s and s.strip() == name"
    header = _header_labels(task, _table_lines(soup, titles[0]) or [], parser)
    for label in header:
        for fold in (".lower()", ""):
            body = [
                "seen = []",
                f"for name in {titles!r}:",
                f'    table = soup.find({name!r}, string={match}).{how}("table")',
                f"    {_ROWS[0]}",
                f'    col = [text(c) for c in rows[0].find_all(["th", "td"])].index({label!r})',
                "    for tr in rows[1:]:",
                f'        value = text(tr.find_all(["th", "td"])[col]){fold}',
                "        if value not in seen:",
                "            seen.append(value)",
                "print(json.dumps(seen, ensure_ascii=False))",
            ]
            head = ["import json", soup_line(parser), TEXT_HELPER]
            plan = checked_plan(task, head, body, None, rng, ("table", "distinct"))
            if plan is not None:
                return plan
    return None


def write_table(task: Task, rng: Random, parser: str) -> Plan | None:
    """A table-reading plan, or None where no titled table gives the answer."""
    if task.is_multipage or not task.solvable:
        return None
    if (plan := _distinct(task, parser, rng)) is not None:
        return plan
    for _, lines in _tables(task)[:2]:
        header = _header_labels(task, lines, parser)
        if not header:
            continue
        rows = rng.choice(_ROWS)
        head = ["import json", soup_line(parser), *lines, TEXT_HELPER, rows, _HEADER]
        for body, tags in _bodies(task, header):
            plan = checked_plan(task, head, body, _INSPECT, rng, tags)
            if plan is not None:
                return plan
    return None
