"""``bs4-env eval``: evaluate a model (or the built-in reference policy) through the engine.

Exit status: 0 all rollouts scored; 1 the run stopped (finished rollouts kept for a rerun);
2 bad arguments or no endpoint; 3 the run finished but some rollouts are error rows;
130 interrupted (Ctrl-C; finished rollouts kept, the rerun command printed).
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bs4_env.cli.eval_config import GivenFlag, apply_training_config
from bs4_env.episode.engine import Budgets
from bs4_env.episode.executors import EXECUTOR_KINDS, make_executor
from bs4_env.evaluation.report import format_table
from bs4_env.evaluation.rollout import DEFAULT_MAX_TURNS
from bs4_env.evaluation.runner import TaskFor, evaluate, generated_task, partial_path
from bs4_env.evaluation.scripted import ReferencePolicy
from bs4_env.evaluation.turns import Policy
from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
from bs4_env.pages.selection import page_rows, page_task_builder, pages_header
from bs4_env.real.reference import reference_program
from bs4_env.sandbox.base import DEFAULT_TIMEOUT_S
from bs4_env.tasks.manifest import load_manifest
from bs4_env.tasks.model import Task
from bs4_env.tasks.modes import MODES, DatasetConfig, build_rows
from bs4_env.tasks.splits import SPLIT_BASES, Row

REFERENCE_MODEL = "reference-policy"
INTERRUPTED = 130  # the shell's status for a command ended by SIGINT


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        help="a prime-rl training config: take turns, tool calls, output cap, timeout, tokens, "
        "sampling and task selection from one of its sources (then leave those flags out)",
    )
    parser.add_argument(
        "--source", help="with --config: the source's name (default: its first eval source)"
    )
    parser.add_argument("--model", "-m", help="model name; omit to run the reference policy")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint (default: by key found)")
    parser.add_argument("--api-key-var", help="env var holding the API key")
    parser.add_argument("--split", action=GivenFlag, default="bench", choices=sorted(SPLIT_BASES))
    parser.add_argument("--mode", action=GivenFlag, default="all", choices=MODES)
    parser.add_argument(
        "--pages",
        action=GivenFlag,
        help="evaluate labelled pages instead: 'real' (fetch its pages first: bs4-env real "
        "fetch) or your rows file (JSONL; docs/real-pages.md); -n takes a prefix that covers "
        "every family in proportion",
    )
    parser.add_argument(
        "--max-page-bytes",
        action=GivenFlag,
        type=int,
        default=DEFAULT_MAX_PAGE_BYTES,
        help="with --pages: refuse rows whose page is larger",
    )
    parser.add_argument("--difficulty", action=GivenFlag, help="comma-separated difficulties")
    parser.add_argument("--archetypes", action=GivenFlag, help="comma-separated archetype ids")
    parser.add_argument("--num", "-n", type=int, help="number of tasks (bench: manifest prefix)")
    parser.add_argument(
        "--seed", action=GivenFlag, type=int, help="shuffle seed for train/eval rows"
    )
    parser.add_argument("--concurrency", "-c", type=int, default=8)
    parser.add_argument(
        "--max-tokens", action=GivenFlag, type=int, default=4096, help="per model turn"
    )
    parser.add_argument("--temperature", action=GivenFlag, type=float, default=0.0)
    parser.add_argument("--max-turns", action=GivenFlag, type=int, default=DEFAULT_MAX_TURNS)
    parser.add_argument(
        "--max-tool-calls", action=GivenFlag, type=int, default=Budgets().max_tool_calls
    )
    parser.add_argument(
        "--max-output-bytes",
        action=GivenFlag,
        type=int,
        default=Budgets().max_output_bytes,
        help="sandbox cap on stdout and on stderr per run_python call (training configs: 3000)",
    )
    parser.add_argument(
        "--timeout-s",
        action=GivenFlag,
        type=float,
        default=DEFAULT_TIMEOUT_S,
        help="per run_python call",
    )
    parser.add_argument("--max-retries", type=int, default=4, help="retries per model request")
    parser.add_argument(
        "--request-timeout", type=float, default=180.0, help="seconds per model request"
    )
    parser.add_argument("--output", "-o", type=Path, help="results JSON path")
    parser.add_argument(
        "--resume",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="skip rollouts finished by an earlier run of this output; rerun its error rows",
    )
    parser.add_argument(
        "--executor", action=GivenFlag, default="local", choices=EXECUTOR_KINDS, help="sandbox"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    show_defaults(parser)


# What an option without a value means, for --help (the rest show their value).
UNSET_MEANS = {
    "model": "none",
    "base_url": "OpenRouter or OpenAI, by the key found",
    "api_key_var": "OPENROUTER_API_KEY, else OPENAI_API_KEY",
    "difficulty": "all",
    "archetypes": "all",
    "num": "all",
    "seed": "none: rows in order",
    "output": "outputs/eval-<model>-<split>.json",
    "quiet": "show it",
}


def show_defaults(parser: argparse.ArgumentParser) -> None:
    """Append its default to every option's --help that does not state one already."""
    for action in parser._actions:  # argparse has no public accessor for its actions
        if not action.option_strings or action.dest == "help":
            continue
        text = action.help or ""
        if "default" in text:
            continue
        shown = UNSET_MEANS.get(action.dest, "%(default)s")
        action.help = f"{text} (default: {shown})" if text else f"(default: {shown})"


def _output(args: argparse.Namespace, split: str) -> Path:
    model = args.model or REFERENCE_MODEL
    path: Path = args.output or Path("outputs") / f"eval-{model.replace('/', '_')}-{split}.json"
    return path


def _policy_factory(args: argparse.Namespace) -> tuple[Any, str]:
    if args.model is None:

        def reference(task: Task) -> Policy:
            program = reference_program(task)
            return ReferencePolicy(lambda _messages: program)

        return reference, REFERENCE_MODEL
    from bs4_env.evaluation.openai_policy import OpenAIChatPolicy, resolve_endpoint

    endpoint = resolve_endpoint(args.base_url, args.api_key_var)
    shared = OpenAIChatPolicy(
        args.model,
        endpoint,
        args.max_tokens,
        args.temperature,
        max_retries=args.max_retries,
        timeout_s=args.request_timeout,
    )
    return (lambda _task: shared), args.model


def _selection(args: argparse.Namespace) -> tuple[Sequence[Row], TaskFor, dict[str, Any]]:
    """The rows to run, how to build their tasks, and the header fields naming them."""
    if args.pages is not None:
        given: set[str] = getattr(args, "given_flags", set())
        clash = [f"--{name}" for name in ("split", "mode", "difficulty", "archetypes", "seed")
                 if name in given]  # fmt: skip
        if clash:
            raise ValueError(f"--pages chooses its own rows; drop {', '.join(clash)}")
        rows = page_rows(args.pages, args.max_page_bytes, args.num)
        header = {"split": rows[0].split, **pages_header(args.pages, args.max_page_bytes)}
        return rows, page_task_builder(args.pages, args.max_page_bytes), header
    split, mode = args.split, args.mode
    config = DatasetConfig.from_kwargs(
        split=split,
        mode=mode,
        difficulty=args.difficulty,
        archetypes=args.archetypes,
        seed=args.seed,
        num_examples=args.num,
    )
    header = {
        "split": split,
        "mode": mode,
        "bench_version": load_manifest().version if split == "bench" else None,
    }
    return build_rows(config), generated_task, header


async def _run(args: argparse.Namespace) -> int:
    training = None
    if args.config is not None:
        args, training = apply_training_config(args)
    elif args.source is not None:
        raise ValueError("--source names a source of --config; give --config too")
    rows, task_for, selected = _selection(args)
    policy_for, model = _policy_factory(args)
    split = selected["split"]
    output = _output(args, split)
    # The interrupt handler names the partial file; the split is known only once rows are chosen.
    args.resolved_output = output
    header: dict[str, Any] = {
        "model": model,
        **selected,
        "temperature": args.temperature,
        "max_tokens": args.max_tokens,
        "max_turns": args.max_turns,
        "max_tool_calls": args.max_tool_calls,
        "max_output_bytes": args.max_output_bytes,
        "timeout_s": args.timeout_s,
        "training_config": training.record() if training is not None else None,
    }
    budgets = Budgets(
        max_tool_calls=args.max_tool_calls,
        timeout_s=args.timeout_s,
        max_output_bytes=args.max_output_bytes,
    )
    kept = partial_path(output)
    print(
        f"bs4-env eval: {len(rows)} rollouts of {model} on the {split} split, "
        f"{args.concurrency} at a time; results -> {output}"
        + (f" (finished rollouts in {kept} are kept)" if args.resume and kept.exists() else ""),
        flush=True,
    )
    try:
        async with make_executor(args.executor, concurrency=args.concurrency) as executor:
            results = await evaluate(
                rows,
                policy_for,
                executor,
                output,
                header,
                args.concurrency,
                budgets,
                args.max_turns,
                resume=args.resume,
                progress=not args.quiet,
                task_for=task_for,
            )
    except Exception as error:
        saved = partial_path(output)
        print(
            f"bs4-env eval: stopped by {type(error).__name__}: {error}\n"
            f"finished rollouts are kept in {saved}; rerun the same command to resume.",
            file=sys.stderr,
        )
        return 1
    print(format_table(results))
    print(f"\nmodel {model}  split {split}  n {results['n']}  -> {output}")
    # 3: the run finished, but some rollouts are error rows (a rerun retries them).
    return 3 if results["errors"] else 0


def cmd_eval(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_run(args))
    except KeyboardInterrupt:
        # asyncio.run cancelled the rollouts; each finished one is already in the partial file.
        output = getattr(args, "resolved_output", None)
        kept = "" if output is None else f"finished rollouts are kept in {partial_path(output)}. "
        print(
            f"\nbs4-env eval: interrupted; {kept}Resume with:\n  {resume_command()}",
            file=sys.stderr,
        )
        return INTERRUPTED


def resume_command(argv: list[str] | None = None) -> str:
    """The command line that resumes this run: the same one, without ``--no-resume``."""
    argv = list(sys.orig_argv if argv is None else argv)
    console = next((i for i, a in enumerate(argv) if Path(a).name == "bs4-env"), None)
    if console is not None:  # python .venv/bin/bs4-env ...: show it as typed
        argv = ["bs4-env", *argv[console + 1 :]]
    return shlex.join(a for a in argv if a != "--no-resume")
