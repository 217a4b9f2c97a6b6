"""``bs4-env learn`` without the learning lab: one line naming the install command, exit 2.

The lab (lab/, its own distribution) adds ``learn`` through the ``bs4_env.commands``
entry-point group; here the parser is built with no entry points, as where only the
environment is installed (lab/tests/test_lab_cli.py checks the installed lab's command).
"""

from __future__ import annotations

import pytest

from bs4_env.cli.main import EXTERNAL_COMMANDS, build_parser, main


@pytest.mark.parametrize("argv", [["learn"], ["learn", "--out", "x", "--resume"], ["learn", "-h"]])
def test_learn_without_the_lab_names_the_install_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv, commands=()) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, lines
    assert "pip install -e . -e ./lab" in lines[0] and "bs4-env learn" in lines[0]


def test_the_command_is_listed_with_its_install_line() -> None:
    text = " ".join(build_parser(commands=()).format_help().split())  # argparse wraps it
    assert "learn" in text and EXTERNAL_COMMANDS["learn"][1] in text


def test_other_commands_still_refuse_unknown_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["list", "--bogus"], commands=())
    assert stop.value.code == 2
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err
