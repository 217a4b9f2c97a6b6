"""A unit's own code, hundreds of wrapper elements deep, among nested units' look-alike codes.

Skill: working on a very deep tree (the value sits 200-600 elements deep in page-builder
``div``/``span`` wrappers; BeautifulSoup's searches are iterative, so nothing needs a
recursion limit raised): find the unit by its ``data-unit`` attribute, then take the
``.cc-code`` whose nearest ``[data-unit]`` ancestor is that unit (``find_parent``), not
the first or last code below it.
Shortcuts resisted: units nest inside one another and every unit's code block has the
very same markup, so a regex over the raw HTML (``cc-code">([^<]+)``, even anchored at
the unit's ``data-unit="..."`` text) hits another unit's code; the requested unit always
holds a nested unit before its own code and another after it, so ``unit.find(class_=
"cc-code")`` and ``unit.find_all(class_="cc-code")[-1]`` both pick a nested unit's code.
"""

from __future__ import annotations

from html import escape
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated
from bs4_env.tasks.rng import token

_LAYERS = (
    ('<div class="wp-block-group">', "</div>"),
    ('<div class="elementor-widget-wrap elementor-element-populated">', "</div>"),
    ('<span class="wrap">', "</span>"),
    ('<div class="col">', "</div>"),
    ('<span class="layer">', "</span>"),
    ('<div class="container-inner">', "</div>"),
)
# How deep the chrome around the main content reaches, at most (kept out of the budget).
_CHROME_DEPTH = 12


class _Wrappers:
    """One page's wrapper pattern: the same cycle of layers around every block."""

    def __init__(self, rng: Random) -> None:
        self.cycle = rng.sample(_LAYERS, rng.randint(2, 3))

    def open(self, n: int) -> str:
        return "".join(self.cycle[i % len(self.cycle)][0] for i in range(n))

    def close(self, n: int) -> str:
        return "".join(self.cycle[i % len(self.cycle)][1] for i in reversed(range(n)))


class _Page:
    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.wrap = _Wrappers(rng)
        self.ids = pools.unique(rng, lambda r: f"u-{token(r, 6)}", 24)
        self.codes = pools.unique(rng, _code, 24)
        self.names = pools.unique(rng, _unit_name, 24)
        self.used = 0

    def head(self, depth: int) -> tuple[str, str, str]:
        """A new unit's opening markup, its wrappers and heading, and its code."""
        i, self.used = self.used, self.used + 1
        notes = "".join(
            f'<div class="note">{escape(pools.sentence(self.rng, 10))}</div>'
            for _ in range(self.rng.randint(0, 2))
        )
        opening = (
            f'<div class="unit" data-unit="{self.ids[i]}">{self.wrap.open(depth)}'
            f'<div class="unit-name">{escape(self.names[i])}</div>{notes}'
        )
        return self.ids[i], opening, self.codes[i]

    def meta(self, code: str, depth: int) -> str:
        """A code block: the same markup for every unit, only its depth differs."""
        return (
            f'<div class="unit-meta">{self.wrap.open(depth)}<span class="cc-label">Cost centre'
            f'</span> <span class="cc-code">{code}</span>{self.wrap.close(depth)}</div>'
        )

    def leaf(self) -> str:
        depth = self.rng.randint(5, 60)
        _, opening, code = self.head(depth)
        return opening + self.meta(code, self.rng.randint(5, 40)) + self.close_unit(depth)

    def close_unit(self, depth: int) -> str:
        return f"{self.wrap.close(depth)}</div>"


def _code(rng: Random) -> str:
    letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2))
    return f"CC-{rng.randint(1000, 9999)}-{letters}"


def _unit_name(rng: Random) -> str:
    return f"{rng.choice(pools.ADJECTIVES)} {rng.choice(pools.DEPARTMENTS)}"


def _depths(rng: Random, target: int, meta_depth: int) -> list[int]:
    """Wrapper counts of the chain units down to ``target`` so its code is 200-600 deep."""
    budget = rng.randint(230, 560) - meta_depth - 2 * (target + 1) - _CHROME_DEPTH
    cuts = sorted(rng.sample(range(1, budget), target))
    return [b - a for a, b in zip([0, *cuts], [*cuts, budget], strict=True)]


def org_chart(rng: Random) -> tuple[str, str, str]:
    """The nested units as HTML, the requested unit's id and its code."""
    page = _Page(rng)
    chain = rng.randint(4, 7)
    target = rng.randint(0, chain - 2)
    meta_depth = rng.randint(10, 60)
    below = [rng.randint(20, 120) for _ in range(chain - target - 1)]
    depths = _depths(rng, target, meta_depth) + below
    prefix: list[str] = []
    suffix: list[str] = []
    found = ("", "")
    for level in range(chain):
        uid, opening, code = page.head(depths[level])
        own = page.meta(code, meta_depth if level == target else rng.randint(5, 60))
        if level == target:
            found = (uid, code)
        if level == chain - 1:
            prefix.append(opening + own + page.close_unit(depths[level]))
            break
        # The requested unit holds a nested unit on each side of its own code.
        leaf = page.leaf() if level == target or rng.random() < 0.4 else ""
        if rng.random() < 0.5:
            prefix.append(opening)
            suffix.append(own + leaf + page.close_unit(depths[level]))
        else:
            prefix.append(opening + leaf + own)
            suffix.append(page.close_unit(depths[level]))
    html = "".join(prefix) + "".join(reversed(suffix))
    return html, found[0], found[1]


def generate(rng: Random) -> Generated:
    units, uid, code = org_chart(rng)
    main = (
        '<section class="org-chart"><h1>Organisation</h1>'
        f"<p>{escape(pools.sentence(rng, 14))}</p>{units}</section>"
    )
    html = wrap_page(
        rng,
        title="Organisation",
        main_html=main,
        difficulty=ARCHETYPE.difficulty,
        breadcrumbs=("Home", "About", "Organisation"),
    )
    query = (
        f'What is the cost-centre code of the unit with data-unit="{uid}"? Units are nested '
        "inside one another; give the code shown in that unit's own details, not a code of "
        "a unit nested inside it."
    )
    return Generated(html=html, query=query, query_template="deeply_nested_value", truth=code)


ARCHETYPE = ArchetypeSpec(
    id="deeply_nested_value",
    category=Category.ROBUSTNESS,
    difficulty=Difficulty.HARD,
    solvable=True,
    version=5,
    phase="phase2",
    description="A unit's own code 200-600 elements deep, nested units' codes around it.",
    answer_schema='a string, the code exactly as shown (e.g. "CC-0000-AA")',
    generate=generate,
)
