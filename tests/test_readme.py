"""The README's claims are generated from, or tested against, the code."""

from __future__ import annotations

import re
from pathlib import Path

from bs4_env.cli.catalog import markdown_table

README = Path(__file__).resolve().parents[1] / "README.md"


def test_archetype_table_matches_registry() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"<!-- archetypes:start -->\n(.*?)\n<!-- archetypes:end -->", text, re.S)
    assert block is not None
    assert block.group(1).strip() == markdown_table().strip(), "run scripts/update_readme.py"


def test_exactly_two_setup_commands() -> None:
    text = README.read_text(encoding="utf-8")
    setup = text.split("## Set up and run", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in setup.strip().splitlines()]
    assert commands == ["make eval", "make test"]
