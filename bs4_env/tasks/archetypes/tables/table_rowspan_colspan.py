"""A table with merged cells expanded into a full rectangular grid.

Skill: reading ``rowspan``/``colspan`` attributes and carrying spanned cells down into the
following rows (a pending-span map per column), so every row has the same width.
Shortcuts resisted: spans differ per seed (row groups, multi-slot sessions, full-width
breaks, merged "not stocked" cells, a merged header), so a fixed layout fails; a decoy
table of the same kind with a near-duplicate caption sits beside it; the markup omits
optional end tags (``</td>`` before ``</tr>``, ``</tr>`` before ``</tbody>``) and sometimes
uses upper-case tags with unquoted attributes -- all three parsers build the same tree.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks import queries
from bs4_env.tasks.html import pools
from bs4_env.tasks.html import tables as tb
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

Rect = tuple[int, int, int, int, str]  # row, column, height, width, text

_EVENTS = ("DevSummit", "Design Week", "Data Days", "Maker Fair", "Cloud Forum", "UX Camp")
_ROOMS = ("Room A", "Room B", "Hall 1", "Studio 2", "Auditorium", "Lab 3", "Loft")
_BREAKS = ("Lunch break", "Coffee & networking", "Keynote", "Closing panel")
_KINDS = ("talk", "workshop", "panel", "demo", "Q&A")
_REGIONS = ("North", "South", "East", "West", "Central", "Coastal", "Alpine", "Metro")


class _Grid:
    def __init__(self, rows: int, cols: int) -> None:
        self.free = [[True] * cols for _ in range(rows)]
        self.rects: list[Rect] = []

    def place(self, r: int, c: int, h: int, w: int, text: str) -> bool:
        h, w = min(h, len(self.free) - r), min(w, len(self.free[0]) - c)
        cells = [(i, j) for i in range(r, r + h) for j in range(c, c + w)]
        if not all(self.free[i][j] for i, j in cells):
            return False
        for i, j in cells:
            self.free[i][j] = False
        self.rects.append((r, c, h, w, text))
        return True


def _session(rng: Random) -> str:
    if rng.random() < 0.12:
        return ""
    return f"{rng.choice(pools.WORDS).capitalize()} {rng.choice(pools.WORDS)} {rng.choice(_KINDS)}"


def _schedule(rng: Random) -> tuple[list[tuple[str, int]], _Grid]:
    rooms = rng.sample(_ROOMS, rng.randint(3, 4))
    rows, cols = rng.randint(4, 7), len(rooms) + 1
    grid = _Grid(rows, cols)
    minute, step = rng.choice((480, 510, 540)), rng.choice((30, 45, 60))
    for r in range(rows):
        grid.place(r, 0, 1, 1, f"{(minute + r * step) // 60:02d}:{(minute + r * step) % 60:02d}")
        if rng.random() < 0.15:
            grid.place(r, 1, 1, cols - 1, rng.choice(_BREAKS))
        for c in range(1, cols):
            h, w = rng.choice((1, 1, 1, 2, 3)), rng.choice((1, 1, 1, 1, 2))
            text = _session(rng)
            if not text:
                h = w = 1
            while not grid.place(r, c, h, w, text) and (h > 1 or w > 1):
                h, w = max(1, h - 1), max(1, w - 1)
    return [("Time", 1)] + [(room, 1) for room in rooms], grid


def _inventory(rng: Random) -> tuple[list[tuple[str, int]], _Grid]:
    rows = rng.randint(4, 8)
    grid = _Grid(rows, 5)
    ends: list[int] = []  # per row: first row of the next region group
    for region in rng.sample(_REGIONS, rows):
        start = len(ends)
        size = min(rng.randint(1, 3), rows - start)
        if size > 0 and grid.place(start, 0, size, 1, region):
            ends += [start + size] * size
    for r in range(rows):
        # City and shared-price cells merge only inside one region group.
        grid.place(r, 1, min(rng.choice((1, 1, 2)), ends[r] - r), 1, rng.choice(pools.CITIES))
        grid.place(r, 2, 1, 1, pools.product_name(rng))
        if rng.random() < 0.2:
            grid.place(r, 3, 1, 2, rng.choice(("Not stocked", "Discontinued", "On request")))
        grid.place(r, 3, 1, 1, str(rng.randint(0, 300)))
        grid.place(r, 4, min(rng.choice((1, 1, 1, 2)), ends[r] - r), 1, pools.price(rng))
    if rng.random() < 0.35:
        return [("Region", 1), ("City", 1), ("Product", 1), ("Stock & price", 2)], grid
    return [("Region", 1), ("City", 1), ("Product", 1), ("Stock", 1), ("Price", 1)], grid


def _expand(header: list[tuple[str, int]], grid: _Grid) -> list[list[str]]:
    out = [[text for text, span in header for _ in range(span)]]
    body = [[""] * len(grid.free[0]) for _ in grid.free]
    for r, c, h, w, text in grid.rects:
        for i in range(r, r + h):
            for j in range(c, c + w):
                body[i][j] = text
    return out + body


def _markup(rng: Random, header: list[tuple[str, int]], grid: _Grid, caption: str | None) -> str:
    upper = rng.random() < 0.3
    td, th = ("TD", "TH") if upper else ("td", "th")

    def attrs(h: int, w: int) -> str:
        parts = [(n, v) for n, v in (("rowspan", h), ("colspan", w)) if v > 1]
        if upper:
            return "".join(f" {n.upper()}={v}" for n, v in parts)
        return "".join(f' {n}="{v}"' for n, v in parts)

    head = "".join(f"<{th}{attrs(1, span)}>{escape(text)}</{th}>" for text, span in header)
    starts = {(r, c): (h, w, text) for r, c, h, w, text in grid.rects}
    rows = []
    for r in range(len(grid.free)):
        cells = []
        for c in range(len(grid.free[0])):
            if (r, c) in starts:
                h, w, text = starts[r, c]
                tag = th if c == 0 else td
                inner = tb.cell_html(rng, text, 0.3 if c else 0.0)
                cells.append(f"<{tag}{attrs(h, w)}>{inner}</{tag}>")
        # Optional end tags: parsers agree only when </td> is dropped right before </tr>.
        if cells and rng.random() < 0.3:
            cells[-1] = cells[-1].rsplit("</", 1)[0]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    if rng.random() < 0.4:
        rows[-1] = rows[-1].removesuffix("</tr>")
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (
        f'<table class="{rng.choice(("schedule", "grid", "data bordered"))}">{cap}\n'
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody></table>"
    )


def generate(rng: Random) -> Generated:
    schedule = rng.random() < 0.5
    if schedule:
        event = f"{rng.choice(pools.CITIES)} {rng.choice(_EVENTS)} {rng.randint(2019, 2026)}"
        day = rng.randint(1, 3)
        caption, decoy_caption = f"{event}, day {day}", f"{event}, day {day % 3 + 1}"
    else:
        caption, decoy_caption = tb.captions(rng, 2)
    build = _schedule if schedule else _inventory
    blocks: list[str] = []
    truth: list[list[str]] = []
    for text in (caption, decoy_caption):
        header, grid = build(rng)
        mode = rng.choice((None, "h2", "h3"))
        table = _markup(rng, header, grid, text if mode is None else None)
        blocks.append(tb.titled(rng, text, table, mode))
        truth = truth or _expand(header, grid)
    rng.shuffle(blocks)
    html = wrap_page(
        rng,
        title=caption,
        main_html="\n".join(blocks),
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "Events" if schedule else "Reports"),
    )
    query = (
        f'Return the table titled "{caption}" as a full grid: a list of rows (the header row '
        "first, then every body row in order), each a list of cell texts with whitespace "
        "collapsed. Expand merged cells: a cell with rowspan and/or colspan is repeated in "
        "every row and column position it covers, so all rows have the same length."
    )
    return Generated(html=html, query=query, query_template="table_span_grid", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="table_rowspan_colspan",
    category=Category.TABLES,
    difficulty=Difficulty.HARD,
    solvable=True,
    version=7,
    description="Expand a table's rowspan/colspan cells into a full grid, header row included.",
    answer_schema=(
        "a list of lists of strings: the header row then each body row, merged cells repeated "
        f"in every position they cover; cell texts {queries.DISPLAYED}"
    ),
    generate=generate,
)
