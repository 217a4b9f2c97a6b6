"""The installed lab adds ``bs4-env learn`` through the ``bs4_env.commands`` entry point."""

from __future__ import annotations

import tomllib
from importlib.metadata import entry_points
from pathlib import Path

from bs4_env.cli.main import COMMANDS_GROUP, build_parser

LAB = Path(__file__).resolve().parents[1]


def test_the_lab_declares_and_installs_its_command() -> None:
    declared = tomllib.loads((LAB / "pyproject.toml").read_text())["project"]["entry-points"]
    assert declared[COMMANDS_GROUP] == {"learn": "bs4_lab.cli:register"}
    installed = {e.name: e.value for e in entry_points(group=COMMANDS_GROUP)}
    assert installed == {"learn": "bs4_lab.cli:register"}, "install the lab: pip install -e ./lab"


def test_bs4_env_learn_parses_the_lab_flags() -> None:
    args = build_parser().parse_args(["learn", "--out", "runs/x", "--resume", "--seed", "3"])
    assert (args.command, str(args.out), args.resume, args.seed) == ("learn", "runs/x", True, 3)
    assert not hasattr(args, "missing")
