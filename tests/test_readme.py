"""The README's and the docs pages' claims are generated from, or tested against, the code.

The README is a short overview (peers' layout, at most 150 lines); the rest lives in short
pages under docs/ that it links. Every relative link resolves, every file path they name
exists, the archetype catalogue equals the registry, the arguments and metrics tables equal
the taskset's config and metrics, and nothing tells a user to install the package by name
from PyPI, where it is not. (Every ``bs4-env`` flag they name: test_readme_cli_flags.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bs4_env.cli.catalog import markdown_table

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
MAX_README_LINES = 150
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")
# A repository path in backticks: a top-level folder of ours, then no placeholder parts.
PATH = re.compile(
    r"`((?:bs4_env|beautiful_soup_env|scripts|tests|configs|docs)/[\w./-]*|"
    r"[A-Z_]+\.md|pyproject\.toml|Makefile)`"
)
NAME_INSTALL = re.compile(r"pip install\s+['\"]?beautiful-soup-env")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_readme_is_short_and_links_every_docs_page() -> None:
    lines = _text(README).splitlines()
    assert len(lines) <= MAX_README_LINES, f"README has {len(lines)} lines"
    linked = {m[0] for m in LINK.findall(_text(README))}
    unlinked = [p.name for p in DOCS if f"docs/{p.name}" not in linked]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"
    for heading in ("## Quickstart", "## Arguments", "## Metrics", "## Changelog"):
        assert heading in lines, heading


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target, anchor in LINK.findall(_text(page)):
        if "://" in target or target.startswith("mailto:"):
            continue
        resolved = (page.parent / target).resolve()
        if not resolved.exists():
            broken.append(target)
        elif anchor and resolved.suffix == ".md":
            headings = re.findall(r"^#+ (.+)$", _text(resolved), re.M)
            if anchor[1:] not in {_anchor(h) for h in headings}:
                broken.append(target + anchor)
    assert not broken, f"{page.name}: broken links {broken}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_file_path_named_exists(page: Path) -> None:
    missing = sorted({p for p in PATH.findall(_text(page)) if not (ROOT / p).exists()})
    assert not missing, f"{page.name} names paths that do not exist: {missing}"


def test_archetype_table_matches_registry() -> None:
    text = _text(ROOT / "docs" / "archetypes.md")
    block = re.search(r"<!-- archetypes:start -->\n(.*?)\n<!-- archetypes:end -->", text, re.S)
    assert block is not None
    assert block.group(1).strip() == markdown_table().strip(), "run scripts/update_readme.py"


def test_exactly_two_setup_commands() -> None:
    text = _text(README)
    setup = text.split("## Quickstart", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in setup.strip().splitlines()]
    assert commands == ["make eval", "make test"]


def test_nothing_installs_the_package_by_name_from_an_index() -> None:
    texts = {p.name: _text(p) for p in PAGES}
    texts.update({str(p): _text(p) for p in (ROOT / "bs4_env").rglob("*.py")})
    claims = [name for name, text in texts.items() if NAME_INSTALL.search(text)]
    assert not claims, f"'pip install beautiful-soup-env' (not on PyPI) in {claims}"


def _table(heading: str) -> list[list[str]]:
    section = _text(README).split(heading, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def _names(cell: str) -> list[str]:
    return re.findall(r"`([a-z_0-9]+)`", cell)


@pytest.mark.integration
def test_arguments_table_is_the_taskset_config() -> None:
    pytest.importorskip("verifiers.v1")
    from bs4_env.integrations.verifiers_v1.config import (
        DATASET_FIELDS,
        ENGINE_FIELDS,
        PAGE_FIELDS,
        BS4TasksetConfig,
    )

    rows = {_names(row[0])[0]: row for row in _table("## Arguments")}
    assert list(rows) == [*DATASET_FIELDS, *ENGINE_FIELDS, *PAGE_FIELDS]
    fields = BS4TasksetConfig.model_fields
    for name, row in rows.items():
        default = fields[name].default
        shown = row[2]
        if default is None:
            assert shown.startswith(("all", "none")), (name, shown)
        else:
            assert shown.strip('`"') == str(default), (name, shown, default)


@pytest.mark.integration
def test_metrics_table_is_the_tasks_reward_and_metrics() -> None:
    pytest.importorskip("verifiers.v1")
    from bs4_env.integrations.verifiers_v1.task import COMPONENTS

    named = [name for row in _table("## Metrics") for name in _names(row[0])]
    assert sorted(named) == sorted(["reward", *COMPONENTS, "bad_arguments"])
