"""``bs4-env eval`` and ``bs4-env preview`` tell a user what they need before and after a run.

``eval --help`` shows every default; a run says up front how many rollouts it will play and
where the results go; Ctrl-C ends with the command that resumes it (the finished rollouts
stay in the partial file). ``preview --full`` shows the whole page, and ``preview --request``
exactly the messages and tool schemas the model receives first.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bs4_env.cli.eval_cmd import resume_command
from bs4_env.cli.main import build_parser, main
from bs4_env.evaluation.rollout import run_rollout
from bs4_env.evaluation.turns import AssistantTurn, Message
from bs4_env.sandbox.base import Executor
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import seed_for

BIN = Path(sys.executable).parent


def _subparser(name: str) -> argparse.ArgumentParser:
    for action in build_parser()._actions:  # argparse has no public accessor for subparsers
        if isinstance(action, argparse._SubParsersAction):
            parser: argparse.ArgumentParser = action.choices[name]
            return parser
    raise LookupError(name)


def test_eval_help_shows_every_default() -> None:
    parser = _subparser("eval")
    options = [a for a in parser._actions if a.option_strings and a.dest != "help"]
    assert len(options) > 15
    silent = [a.option_strings[0] for a in options if "default" not in (a.help or "")]
    assert not silent, f"options whose --help hides the default: {silent}"
    text = parser.format_help()
    for shown in ("(default: 8)", "(default: 4096)", "(default: 180.0)", "(default: 4)"):
        assert shown in " ".join(text.split()), shown


def test_eval_says_how_many_rollouts_and_where_before_it_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    assert main(["eval", "-n", "2", "-o", str(out), "--quiet", "-c", "2"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("bs4-env eval: 2 rollouts of reference-policy on the bench split")
    assert first.endswith(f"-> {out}")


def test_resume_command_is_the_same_command_without_no_resume() -> None:
    argv = ["/x/.venv/bin/python", "/x/.venv/bin/bs4-env", "eval", "--no-resume", "-n", "5"]
    assert resume_command(argv) == "bs4-env eval -n 5"
    module = ["python", "-m", "bs4_env.scripts.eval_with_llm", "--model", "m x"]
    assert resume_command(module) == "python -m bs4_env.scripts.eval_with_llm --model 'm x'"


def test_ctrl_c_ends_with_the_resume_command_and_keeps_finished_rollouts(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    partial = out.with_name(out.name + ".partial.jsonl")
    command = [str(BIN / "bs4-env"), "eval", "-n", "300", "-c", "2", "-o", str(out), "--quiet"]
    # A job started with `&` by a non-interactive shell inherits SIGINT ignored, and Python
    # keeps an ignored SIGINT; restore the default so the test sees what a terminal's Ctrl-C does.
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 300
    while not (partial.exists() and partial.read_text().count("\n") >= 2):
        assert proc.poll() is None and time.monotonic() < deadline, "no rollout finished"
        time.sleep(0.05)
    assert not out.exists(), "the run ended before the signal"
    os.kill(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 130, stderr[-2000:]
    assert "Traceback" not in stderr, stderr[-2000:]
    assert "interrupted; finished rollouts are kept" in stderr
    assert f"bs4-env eval -n 300 -c 2 -o {out} --quiet" in stderr
    assert partial.read_text().count("\n") >= 2, "finished rollouts stay for the rerun"


def test_preview_full_shows_the_whole_page(capsys: pytest.CaptureFixture[str]) -> None:
    task = build_task("deeply_nested_value", seed_for("train", 0), "train")
    assert len(task.html) > 5000
    assert main(["preview", "deeply_nested_value", "--full"]) == 0
    assert task.html in capsys.readouterr().out
    assert main(["preview", "deeply_nested_value"]) == 0
    assert task.html not in capsys.readouterr().out, "without --full the page is shortened"


class _Recorder:
    """Answers at once, keeping the first request it was sent."""

    def __init__(self) -> None:
        self.request: dict[str, Any] | None = None

    async def next_turn(self, messages: list[Message], tools: list[dict[str, Any]]) -> Any:
        self.request = {"messages": list(messages), "tools": tools}
        return AssistantTurn(content='{"status": "ok", "answer": null}')


async def test_preview_request_is_what_the_model_receives(
    executor: Executor, capsys: pytest.CaptureFixture[str]
) -> None:
    task = build_task("multipage_navigate", seed_for("eval", 2), "eval")
    recorder = _Recorder()
    await run_rollout(task, recorder, executor)
    assert (
        main(["preview", "multipage_navigate", "--split", "eval", "--seed", "2", "--request"]) == 0
    )
    shown = json.loads(capsys.readouterr().out)
    assert shown == json.loads(json.dumps(recorder.request))
    assert task.html not in json.dumps(shown), "the model never receives the page"
