"""``sft.plan.shared_outcomes``: within one ``sft-data`` run a repeated host dry run of the
same program on the same page is answered from a store, with what running it again gives."""

from __future__ import annotations

import hashlib
from random import Random

import pytest

from bs4_env.sft import locate, plan
from bs4_env.sft.episodes import base_draw, candidate_plans
from bs4_env.sft.plan import host_outcome, shared_outcomes
from bs4_env.sft.read_only import reads_only
from bs4_env.tasks.registry import build_task, default_registry
from bs4_env.tasks.splits import seed_for

PRINTS = "soup = make_soup()\nprint(soup.title.get_text())"
RAISES = "soup = make_soup()\nprint(soup.find('no-such-tag').text)"


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The programs ``host_outcome`` really runs (the real runner, counted)."""
    ran: list[str] = []
    real = plan._run

    def run(html: str, code: str, shared: bytes | None = None) -> tuple[str, Exception | None]:
        ran.append(code)
        return real(html, code, shared)

    monkeypatch.setattr(plan, "_run", run)
    return ran


def test_repeats_are_answered_within_the_block_only(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = _counted(monkeypatch)
    task = build_task("text_by_id", seed_for("train", 0), "train")
    fresh_out, fresh_error = host_outcome(task, RAISES)
    assert host_outcome(task, RAISES)[1] is not fresh_error and len(ran) == 2
    with shared_outcomes():
        first = host_outcome(task, RAISES)
        again = build_task("text_by_id", seed_for("train", 0), "train")  # equal page, new str
        second = host_outcome(again, RAISES)
        printed = host_outcome(task, PRINTS)
        other = host_outcome(build_task("text_by_id", seed_for("train", 1), "train"), PRINTS)
    assert ran == [RAISES, RAISES, RAISES, PRINTS, PRINTS]
    assert second is first and first[0] == fresh_out
    assert type(first[1]) is type(fresh_error) and str(first[1]) == str(fresh_error)
    assert first[1] is not None and first[1].__traceback__ is None
    assert printed[1] is None and printed[0].strip() and printed != other
    host_outcome(task, RAISES)
    assert len(ran) == 6  # the store ends with the block


def test_the_store_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan, "MAX_SHARED_OUTCOMES", 2)
    ran = _counted(monkeypatch)
    task = build_task("text_by_id", seed_for("train", 0), "train")
    codes = [f"print({n})" for n in range(3)]
    with shared_outcomes():
        for code in codes:
            host_outcome(task, code)
        host_outcome(task, codes[0])  # dropped first
        host_outcome(task, codes[2])  # still held
    assert ran == [*codes, codes[0]]


def test_plans_are_the_same_with_the_store() -> None:
    """The writers' candidate plans (many host dry runs each, repeats among them) are the
    same without the store, with it, and answered from it a second time."""
    registry = default_registry()
    for archetype_id in ("text_by_id", "table_dicts_by_header", "form_fields", "json_ld"):
        task = build_task(archetype_id, seed_for("train", 2), "train")
        plain = candidate_plans(task, registry, Random(archetype_id))
        with shared_outcomes():
            stored = candidate_plans(task, registry, Random(archetype_id))
            repeated = candidate_plans(task, registry, Random(archetype_id))
        assert plain and stored == plain and repeated == plain, archetype_id


def test_a_kept_base_draw_gives_the_same_plans() -> None:
    """``sft-data``'s mix draws each row's base plans with the episode's own RNG; the episode
    goes on from that draw (``Assignment.bases``) instead of drawing again, and gets the
    plans a fresh draw gives (solvable archetypes and a limitation one)."""
    registry = default_registry()
    for archetype_id in ("text_by_id", "table_dicts_by_header", "js_rendered"):
        task = build_task(archetype_id, seed_for("train", 3), "train")
        drawn = base_draw(task, registry, Random(archetype_id))
        fresh = candidate_plans(task, registry, Random(archetype_id))
        kept = candidate_plans(task, registry, Random(archetype_id), drawn)
        assert fresh and kept == fresh, archetype_id


READS = (
    "soup = make_soup()\nprint(soup.title.get_text())",
    'soup = make_soup("lxml")\nrows = [t.get_text() for t in soup.select("p")]\nprint(len(rows))',
    "import json\nsoup = make_soup()\nprint(json.dumps({t.name: 1 for t in soup.find_all(True)}))",
)
CHANGES = (
    "soup = make_soup()\nfor s in soup(['script', 'style']):\n    s.decompose()",
    "soup = make_soup()\nsoup.p['class'] = 'x'",
    "soup = make_soup()\nsoup.p.string = 'x'",
    "soup = make_soup()\ndel soup.p['id']",
    "soup = make_soup()\nsoup.p.attrs.update(id='x')",
    "soup = make_soup()\nsoup.p.get('class').sort()",
    "soup = make_soup()\nkids = soup.body.contents\nkids += []",
    "soup = make_soup()\ngetattr(soup.p, 'extract')()",
    "soup = make_soup()\nsoup.p.__dict__['name'] = 'x'",
    "soup = make_soup()\nrows = []\nrows.append(soup.p)",
    "soup = make_soup(\n",
)


def test_reads_only_refuses_every_way_to_change_the_tree() -> None:
    for code in READS:
        assert reads_only(code), code
    for code in CHANGES:
        assert not reads_only(code), code


def test_read_only_programs_share_one_tree_per_parser() -> None:
    """Within the block a read-only program's first tree of a parser is the page's shared one
    (``locate.parse``'s for html.parser), a second ``make_soup`` of that parser is a fresh
    parse, and a program that may change its tree parses its own; outside the block every
    program parses its own. (A shared tree is alive while it is shared, so no fresh tree can
    have its ``id``.)"""
    task = build_task("text_by_id", seed_for("train", 0), "train")
    for parser in ("html.parser", "lxml"):
        reads = f"print(id(make_soup({parser!r})))"
        other = f"soup = make_soup({parser!r})\nprint(id(soup))"
        twice = f"a = make_soup({parser!r})\nprint(a is make_soup({parser!r}), id(a))"
        changes = f"soup = make_soup({parser!r})\nprint(id(soup))\n[].sort()"
        assert reads_only(reads) and reads_only(other) and reads_only(twice)
        assert not reads_only(changes)
        with shared_outcomes():
            shared = host_outcome(task, reads)[0]
            assert host_outcome(task, other)[0] == shared
            assert host_outcome(task, twice)[0] == f"False {shared}"
            assert host_outcome(task, changes)[0] != shared
            if parser == "html.parser":
                assert shared == f"{id(locate.parse(task.html))}\n"
    assert host_outcome(task, "print(id(make_soup()))")[0] != f"{id(locate.parse(task.html))}\n"


# Archetypes whose dry runs include programs that change their tree (a table's ``decompose``,
# an address's ``br.replace_with``, a form's ``extract``) and programs in lxml and html5lib.
SHARING_ROWS = ("address_br_lines", "table_dicts_by_header", "form_fields", "text_by_class_decoys")


def test_dry_runs_leave_the_shared_trees_as_parsed() -> None:
    """After a row's plans of every kind are drawn within the block, each tree the dry runs
    shared decodes as a fresh parse of the page with its parser (archetypes whose plans run
    lxml and html5lib programs, and recovery, budget and defensive plans)."""
    from bs4 import BeautifulSoup

    from bs4_env.sft.mix import Mix, assign
    from bs4_env.tasks.splits import Row

    registry = default_registry()
    rows = [
        Row(archetype_id, seed_for("train", i), "train")
        for archetype_id in SHARING_ROWS
        for i in range(2)
    ]
    with shared_outcomes():
        assign(rows, registry, 0, Mix(0.3, 0.3, 0.2))
        assert plan._TREES is not None
        kept = dict(plan._TREES)
        tasks = [build_task(r.archetype_id, r.seed, r.split) for r in rows]
        pages = {hashlib.sha256(t.html.encode()).digest(): t.html for t in tasks}
        for (digest, parser), tree in kept.items():
            assert tree.decode() == BeautifulSoup(pages[digest], parser).decode(), parser
        for html in pages.values():
            fresh = BeautifulSoup(html, "html.parser")
            assert locate.parse(html).decode() == fresh.decode()
    assert kept
