"""Every ``bs4-env`` flag the README and the docs pages name exists, and none says one is missing.

A claim of a missing flag drifted once (``--max-output-bytes`` existed while the README said
there was no such flag), so the README and docs/*.md may only name flags the parser has and
state no "no flag" claims about ``bs4-env`` at all: an absent option is simply not documented.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

from bs4_env.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
# "has no flag for ...", "there is no `--x`", "no option to ..." (not "no `--model` = ...").
CLAIM = re.compile(
    r"\b(?:has|have|is|are|offers)\s+no\s+(?:flag|option|`--)|\bno (?:flag|option) (?:for|to)\b"
)
VARIABLE = re.compile(r'^([A-Z_]+)="(.*)"$', re.S)


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    """A parser's long flags and those of its own subcommands (``bs4-env real fetch --pages``
    counts as a flag of ``real``)."""
    flags = {opt for opt in parser._option_string_actions if opt.startswith("--")}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                flags |= _flags(sub)
    return flags


def _subcommands() -> dict[str, set[str]]:
    parser = build_parser()
    for action in parser._actions:  # argparse offers no public accessor for subparsers
        if isinstance(action, argparse._SubParsersAction):
            return {name: _flags(sub) for name, sub in action.choices.items()}
    raise LookupError("bs4-env has no subcommands")


def _code_commands(text: str) -> list[tuple[str, str]]:
    """(subcommand, rest of line) for each bs4-env command in the README's code blocks, with
    shell variables defined in the same block expanded and continuation lines joined."""
    found: list[tuple[str, str]] = []
    blocks: list[str] = []
    current: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("```"):
            if inside:
                blocks.append("\n".join(current))
            current, inside = [], not inside
        elif inside:
            current.append(line)
    for block in blocks:
        variables: dict[str, str] = {}
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split(" #", 1)[0].strip()
            if match := VARIABLE.match(line):
                variables[match[1]] = match[2]
            for name, value in variables.items():
                line = line.replace(f"${name}", value).replace(f"${{{name}}}", value)
            if match := re.search(r"bs4-env\s+([a-z-]+)(.*)", line):
                found.append((match[1], match[2]))
    return found


def _table_commands(text: str) -> list[tuple[str, str]]:
    """(subcommand, row text) for each row of a command-line table."""
    rows = re.findall(r"^\| `bs4-env ([a-z-]+)([^\n]*)$", text, re.M)
    return [(name, rest) for name, rest in rows]


def _prose_commands(text: str) -> list[tuple[str, str]]:
    """(subcommand, inline code) for inline spans such as `bs4-env eval --max-turns 10`."""
    return re.findall(r"`bs4-env ([a-z-]+)([^`\n]*)`", text)


def _uses(text: str) -> list[tuple[str, str]]:
    return _code_commands(text) + _table_commands(text) + _prose_commands(text)


def test_every_flag_the_readme_and_docs_name_exists() -> None:
    commands = _subcommands()
    uses = [(page.name, use) for page in PAGES for use in _uses(page.read_text())]
    assert len(uses) > 20, "the bs4-env commands of the README and docs were found"
    assert _uses(PAGES[0].read_text()), "the README names bs4-env commands"
    missing = []
    for page, (name, rest) in uses:
        assert name in commands, f"{page} names `bs4-env {name}`, which does not exist"
        tokens = FLAG.findall(" ".join(shlex.split(rest, posix=False)) if rest else "")
        missing += [f"{page}: bs4-env {name} {f}" for f in tokens if f not in commands[name]]
    assert not missing, f"flags the CLI lacks: {sorted(set(missing))}"


def test_no_page_claims_a_missing_bs4_env_flag() -> None:
    claims = [
        sentence
        for page in PAGES
        for sentence in re.split(r"(?<=[.!?])\s+", page.read_text())
        if "bs4-env" in sentence and CLAIM.search(sentence)
    ]
    assert not claims, f"claims that a bs4-env flag is missing: {claims}"
