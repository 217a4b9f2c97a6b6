"""``bs4-env eval --config``: evaluate the episode a prime-rl training config runs.

A before/after comparison measures the trained task only with the training budgets: turns,
tool calls, the sandbox output cap and timeout, tokens per turn, sampling and the taskset
selection. ``--config`` reads them from one source of a config (default: its first eval
source; ``--source NAME`` picks another, e.g. the train source), for main configs (v1
taskset: ``env.taskset`` + ``env.agent``) and legacy ones (``legacy.args``). Every key of the
source must be known here, either mapped to an eval setting or listed with why it does not
change an episode, so a new taskset argument, sampling field or agent setting fails loudly
instead of drifting (``tests/test_eval_config.py`` runs every config through it). The flags
these settings replace must be left out; the results record the config and the settings.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bs4_env.cli.config_registry import load_toml, read_header, sha256_of
from bs4_env.pages.sets import PART_MARK, PARTS
from bs4_env.tasks.modes import ConfigError

JsonObj = dict[str, Any]
# Taskset (or legacy ``args``) field -> the ``bs4-env eval`` argument it sets.
TASKSET_ARGUMENTS = {
    "split": "split",
    "mode": "mode",
    "difficulty": "difficulty",
    "archetypes": "archetypes",
    "seed": "seed",
    "max_tool_calls": "max_tool_calls",
    "max_output_bytes": "max_output_bytes",
    "timeout_s": "timeout_s",
    "executor": "executor",
    "pages": "pages",
    "max_page_bytes": "max_page_bytes",
}
# Taskset fields folded into another argument: ``pages_part`` names a part of ``pages``
# (``real2`` + ``train`` is ``bs4-env eval --pages real2#train``).
FOLDED_FIELDS = {"pages_part": "pages"}
# Fields that change how fast or where episodes run, never what an episode is.
NOT_EPISODE_FIELDS = {
    "pool_size": "sandbox workers per env worker",
    "tool_scope": "one tool server per worker or per rollout",
}
SAMPLING_ARGUMENTS = {"temperature": "temperature", "max_completion_tokens": "max_tokens"}
# Source keys that select or gate tasks for training but do not change an episode.
NOT_EPISODE_SOURCE_KEYS = {"name", "curriculum", "ratio"}
# Every eval argument a config decides: giving one of these flags with --config is an error.
DECIDED = (*TASKSET_ARGUMENTS.values(), *SAMPLING_ARGUMENTS.values(), "max_turns")


class GivenFlag(argparse.Action):
    """Stores the value like ``store`` and records that the flag was given on the command line
    (a value equal to the default is still given: ``--config`` must not silently replace it)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        namespace.given_flags = {*getattr(namespace, "given_flags", ()), self.dest}


@dataclass(frozen=True)
class TrainingEval:
    """What ``--config`` took, as recorded in the results header."""

    file: str
    id: str
    version: int
    sha256: str
    source: str
    settings: dict[str, Any]

    def record(self) -> JsonObj:
        return asdict(self)


def _check_keys(table: JsonObj, known: set[str], where: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(
            f"{where}: bs4-env eval --config does not know {unknown}; map each to an eval "
            "setting in bs4_env/cli/eval_config.py, or list it there as not changing an episode"
        )


def _find_source(doc: JsonObj, name: str | None) -> tuple[str, JsonObj]:
    groups = doc.get("orchestrator", {})
    found = [
        (group, source)
        for group in ("eval", "train")
        for source in groups.get(group, {}).get("source", [])
        if name is None or source.get("name") == name
    ]
    if not found:
        names = [
            s.get("name") for g in ("eval", "train") for s in groups.get(g, {}).get("source", [])
        ]
        raise ConfigError(f"no source {name!r} in the config; its sources: {names}")
    return found[0]


def _episode_tables(source: JsonObj, where: str) -> tuple[JsonObj, int]:
    """(taskset arguments, max_turns) of a main (v1) or legacy source."""
    if "legacy" in source:
        legacy = source["legacy"]
        _check_keys(legacy, {"id", "args"}, f"{where}.legacy")
        args = dict(legacy.get("args", {}))
        return args, args.pop("max_turns", None)
    env = source.get("env", {})
    _check_keys(env, {"taskset", "agent"}, f"{where}.env")
    agent = env.get("agent", {})
    _check_keys(agent, {"max_turns", "harness", "runtime"}, f"{where}.env.agent")
    harness = agent.get("harness", {}).get("id")
    if harness != "null":
        raise ConfigError(f"{where}: harness {harness!r}; bs4-env eval plays the null harness")
    taskset = dict(env.get("taskset", {}))
    return taskset, agent.get("max_turns")


def training_eval(path: Path, source_name: str | None) -> tuple[TrainingEval, JsonObj]:
    """The settings of one source of the config at ``path`` and their ``bs4-env eval``
    arguments (``num`` is the source's ``num_examples`` when it has one)."""
    doc = load_toml(path)
    group, source = _find_source(doc, source_name)
    where = f"{path.name} [{group}] {source.get('name')}"
    episode_keys = {"env", "legacy", "sampling", "num_examples"}
    _check_keys(source, episode_keys | NOT_EPISODE_SOURCE_KEYS, where)
    taskset, max_turns = _episode_tables(source, where)
    environment = taskset.pop("id", "beautiful-soup-env")
    if environment != "beautiful-soup-env":
        raise ConfigError(f"{where}: the source runs {environment!r}, not beautiful-soup-env")
    known = {*TASKSET_ARGUMENTS, *FOLDED_FIELDS, *NOT_EPISODE_FIELDS, "num_examples"}
    _check_keys(taskset, known, f"{where} taskset")
    sampling = {
        **doc.get("orchestrator", {}).get(group, {}).get("sampling", {}),
        **source.get("sampling", {}),
    }
    _check_keys(sampling, set(SAMPLING_ARGUMENTS), f"{where} sampling")
    missing = [key for key in SAMPLING_ARGUMENTS if key not in sampling]
    if missing or not isinstance(max_turns, int):
        raise ConfigError(f"{where}: set {missing or ['max_turns']}: nothing else bounds it")
    arguments: JsonObj = {
        TASKSET_ARGUMENTS[k]: v for k, v in taskset.items() if k in TASKSET_ARGUMENTS
    }
    arguments.update({SAMPLING_ARGUMENTS[k]: v for k, v in sampling.items()})
    arguments["max_turns"] = max_turns
    part = taskset.get("pages_part")
    if part is not None:
        if part not in PARTS or not isinstance(taskset.get("pages"), str):
            raise ConfigError(f"{where}: pages_part {part!r} needs pages and one of {list(PARTS)}")
        arguments["pages"] = f"{taskset['pages']}{PART_MARK}{part}"
    for value in ("difficulty", "archetypes"):
        if isinstance(arguments.get(value), list):
            arguments[value] = ",".join(arguments[value])
    limits = [n for n in (taskset.get("num_examples"), source.get("num_examples")) if n]
    arguments["num"] = min(limits) if limits else None
    config_id, version = read_header(path)
    record = TrainingEval(
        file=path.as_posix(),
        id=config_id,
        version=version,
        sha256=sha256_of(path),
        source=f"{group}/{source.get('name')}",
        settings=dict(arguments),
    )
    return record, arguments


def apply_training_config(args: argparse.Namespace) -> tuple[argparse.Namespace, TrainingEval]:
    """``args`` with the settings of ``args.config`` (``args.source``); a flag the config
    decides, given on the command line, is an error (one of the two would drift)."""
    record, arguments = training_eval(Path(args.config), args.source)
    given = [name for name in DECIDED if name in getattr(args, "given_flags", ())]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise ConfigError(f"{flags}: set by --config {args.config}; leave these flags out")
    rows = arguments.pop("num")
    if args.num is not None and rows is not None and args.num > rows:
        raise ConfigError(f"--num {args.num}: the config's source has {rows} rows")
    num = args.num if args.num is not None else rows
    if num is None and arguments.get("split") == "train":
        raise ConfigError("the config's train source streams the train split; give --num")
    return argparse.Namespace(**{**vars(args), **arguments, "num": num}), record
