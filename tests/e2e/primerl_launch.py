"""Run several prime-rl launcher commands in one process (run with the prime-rl venv).

    python primerl_launch.py JOBS_JSON RESULTS_JSON

JOBS_JSON is a list of ``{"command": "rl" | "sft", "args": [...], "log": PATH}``. Each job runs
as ``<command> <args>`` would from a shell: the venv's ``console_scripts`` entry point of that
name (the function its ``bin/<command>`` wrapper calls) with ``sys.argv`` set to the command
line, its stdout and stderr sent to the job's log, and ``os.environ`` reset to this process's
start-up copy first (a launcher sets ``PRL_RUN_ID`` and ``PRL_RUN_NAME`` for the processes it
would spawn, and a later job must not inherit them) and the warning filters fresh (so each
job prints the warnings a process of its own would). Writes ``[{"returncode": n}, ...]`` in job
order to RESULTS_JSON, with the exit status each command would have had: 0, the code it passed
to ``sys.exit``, or 1 for an uncaught exception (its traceback goes to the log).

Importing prime-rl and its configs is most of a dry run's CPU time, so the e2e tests launch
every config from one process instead of one process per config.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
import warnings
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

COMMANDS = ("rl", "sft")


def _entry_point(command: str) -> Callable[[], Any]:
    """The ``console_scripts`` function ``bin/<command>`` runs (prime-rl's, checked)."""
    found = [ep for ep in entry_points(group="console_scripts") if ep.name == command]
    if len(found) != 1 or not found[0].value.startswith("prime_rl."):
        raise SystemExit(f"expected one prime-rl console script {command!r}, found {found}")
    return found[0].load()


def _exit_status(code: object) -> int:
    """The process exit status ``sys.exit(code)`` gives (as the interpreter maps it)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def run_job(main: Callable[[], Any], argv: list[str], log: Path) -> int:
    """``main()`` with ``argv``, fds 1 and 2 on ``log``; the exit status it would give."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with log.open("w", encoding="utf-8") as out:
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
        sys.argv = argv
        try:
            # Fresh warning filters and "already shown" registries, as in a new process.
            with warnings.catch_warnings():
                main()
            status = 0
        except SystemExit as stop:
            status = _exit_status(stop.code)
        except Exception:  # the interpreter would print it and exit 1: so do we, per job
            traceback.print_exc()
            status = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
    return status


def main() -> None:
    jobs_path, results_path = sys.argv[1:]
    jobs = json.loads(Path(jobs_path).read_text(encoding="utf-8"))
    unknown = sorted({job["command"] for job in jobs} - set(COMMANDS))
    if unknown:
        raise SystemExit(f"unknown commands {unknown}; valid: {list(COMMANDS)}")
    mains = {command: _entry_point(command) for command in {job["command"] for job in jobs}}
    environ = dict(os.environ)
    results = []
    for job in jobs:
        os.environ.clear()
        os.environ.update(environ)
        argv = [job["command"], *job["args"]]
        results.append({"returncode": run_job(mains[job["command"]], argv, Path(job["log"]))})
    Path(results_path).write_text(json.dumps(results), encoding="utf-8")


if __name__ == "__main__":
    main()
