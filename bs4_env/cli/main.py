"""``bs4-env``: evaluate models, list archetypes, preview tasks, prove solvability, and more."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from importlib.metadata import EntryPoint, entry_points

from bs4_env.cli.catalog import cmd_list, cmd_preview
from bs4_env.cli.configs_cmd import add_configs_arguments, cmd_configs
from bs4_env.cli.doctor_cmd import cmd_doctor
from bs4_env.cli.eval_cmd import add_eval_arguments, cmd_eval
from bs4_env.cli.proofs import cmd_check, cmd_manifest
from bs4_env.cli.real_cmd import add_real_arguments, cmd_real
from bs4_env.cli.report_cmd import add_report_arguments, cmd_report
from bs4_env.cli.sft_data_cmd import add_sft_data_arguments, cmd_sft_data
from bs4_env.episode.executors import EXECUTOR_KINDS
from bs4_env.tasks.splits import SPLIT_BASES

# Subcommands another distribution adds through this entry-point group (a callable taking the
# subparsers), so that the environment never imports it: the learning lab (lab/) adds `learn`.
COMMANDS_GROUP = "bs4_env.commands"
# Those this repository ships, with what to install when one is missing.
EXTERNAL_COMMANDS = {"learn": ("the learning lab (lab/)", "pip install -e . -e ./lab")}


def build_parser(commands: Iterable[EntryPoint] | None = None) -> argparse.ArgumentParser:
    """The parser; ``commands``: the ``bs4_env.commands`` entry points to add (default: the
    installed ones)."""
    parser = argparse.ArgumentParser(prog="bs4-env", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p_list = sub.add_parser("list", help="the archetype table")
    p_list.add_argument("--json", action="store_true", help="machine-readable output")
    p_list.add_argument("--markdown", action="store_true", help="the docs/archetypes.md table")
    p_list.set_defaults(func=cmd_list)

    p_prev = sub.add_parser("preview", help="prompt, page and truth of one task, or its request")
    p_prev.add_argument("archetype")
    p_prev.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the seed as printed and recorded in results (e.g. 200000000: its split follows "
        "from it), or an index within --split (below 100000000)",
    )
    p_prev.add_argument("--split", choices=sorted(SPLIT_BASES), help="default: train")
    shown = p_prev.add_mutually_exclusive_group()
    shown.add_argument("--full", action="store_true", help="the whole page (default: its start)")
    shown.add_argument(
        "--request",
        action="store_true",
        help="only what the model receives: the messages and tool schemas, as JSON",
    )
    p_prev.set_defaults(func=cmd_preview)

    p_check = sub.add_parser("check", help="run reference solutions through the real grader")
    p_check.add_argument("--archetype", help="one archetype id (default: all)")
    p_check.add_argument("--split", choices=sorted(SPLIT_BASES), help="default: every split")
    p_check.add_argument("--seeds", type=int, default=20, help="seeds per archetype and split")
    p_check.add_argument("--executor", default="local", choices=EXECUTOR_KINDS)
    p_check.set_defaults(func=cmd_check)

    p_eval = sub.add_parser("eval", help="evaluate a model (default: the reference policy)")
    add_eval_arguments(p_eval)
    p_eval.set_defaults(func=cmd_eval)

    p_doc = sub.add_parser("doctor", help="which sandbox isolation layers are active here")
    p_doc.add_argument("--json", action="store_true")
    p_doc.set_defaults(func=cmd_doctor)

    p_man = sub.add_parser("manifest", help="verify (or --write) the bench manifest")
    p_man.add_argument("--write", action="store_true", help="regenerate the committed manifest")
    p_man.set_defaults(func=cmd_manifest)

    p_cfg = sub.add_parser("configs", help="prime-rl training configs: list, show ID")
    add_configs_arguments(p_cfg)
    p_cfg.set_defaults(func=cmd_configs)

    p_rep = sub.add_parser("report", help="an eval results JSON as one self-contained HTML page")
    add_report_arguments(p_rep)
    p_rep.set_defaults(func=cmd_report)

    p_sft = sub.add_parser("sft-data", help="warm-start episodes (chat + tool calls) for SFT")
    add_sft_data_arguments(p_sft)
    p_sft.set_defaults(func=cmd_sft_data)

    p_real = sub.add_parser("real", help="the real-page evaluation set: fetch its pages")
    add_real_arguments(p_real)
    p_real.set_defaults(func=cmd_real)
    add_external_commands(sub, entry_points(group=COMMANDS_GROUP) if commands is None else commands)
    return parser


def add_external_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], commands: Iterable[EntryPoint]
) -> None:
    """Each entry point adds its command; each command of ``EXTERNAL_COMMANDS`` that none
    added answers with its install line."""
    for entry in commands:
        entry.load()(sub)
        if entry.name not in sub.choices:
            raise RuntimeError(f"entry point {entry.value} did not add `bs4-env {entry.name}`")
    for name, (what, install) in EXTERNAL_COMMANDS.items():
        if name not in sub.choices:
            missing = sub.add_parser(name, help=f"needs {what}: {install}", add_help=False)
            missing.set_defaults(
                missing=f"`bs4-env {name}` needs {what}, not installed here; "
                f"from a clone: {install}"
            )


def main(argv: Sequence[str] | None = None, commands: Iterable[EntryPoint] | None = None) -> int:
    parser = build_parser(commands)
    args, unknown = parser.parse_known_args(argv)
    if missing := getattr(args, "missing", None):
        print(f"bs4-env: {missing}", file=sys.stderr)
        return 2
    if unknown:  # what parse_args would refuse (a missing command takes any arguments)
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return int(args.func(args))
    except (ValueError, KeyError, FileNotFoundError) as error:
        print(f"bs4-env: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
