"""The arguments of the classic ``load_environment(**kwargs)``, checked loudly.

They are the v1 taskset's fields (``bs4_env.integrations.verifiers_v1.config``) minus
``tool_scope`` (classic tools run in the environment's own process, there is no tool server to
scope) plus ``max_turns`` (classic environments own their turn limit; in v1 it is an agent
setting). A test keeps the two lists in step. This module imports no verifiers, so the
arguments can be checked in any install.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from bs4_env.episode.engine import Budgets
from bs4_env.episode.executors import EXECUTOR_KINDS
from bs4_env.evaluation.rollout import DEFAULT_MAX_TURNS
from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
from bs4_env.pages.sets import page_set
from bs4_env.sandbox.base import DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_S
from bs4_env.tasks.modes import ConfigError, DatasetConfig, select_archetypes

DATASET_FIELDS = tuple(f.name for f in fields(DatasetConfig))
ENGINE_FIELDS = ("executor", "pool_size", "max_tool_calls", "timeout_s", "max_output_bytes")
CLASSIC_FIELDS = ("max_turns",)
PAGE_FIELDS = ("pages", "max_page_bytes")
VALID_ARGUMENTS = (*DATASET_FIELDS, *PAGE_FIELDS, *ENGINE_FIELDS, *CLASSIC_FIELDS)
PAGE_CLASHES = ("split", "mode", "difficulty", "archetypes", "seed")
V1_ONLY_FIELDS = {"tool_scope": "the v1 taskset's tool-server scope; classic tools run in-process"}


@dataclass(frozen=True)
class ClassicOptions:
    """Which tasks, how tool calls run, and the turn limit of one classic environment."""

    dataset: DatasetConfig = field(default_factory=DatasetConfig)
    executor: str = "local"
    pool_size: int | None = None
    max_tool_calls: int = Budgets().max_tool_calls
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES
    max_turns: int = DEFAULT_MAX_TURNS
    pages: str | None = None
    """Labelled pages (``real`` or a rows file) instead of generated tasks."""
    max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES

    def __post_init__(self) -> None:
        if self.executor not in EXECUTOR_KINDS:
            raise ConfigError(
                f"executor must be one of {list(EXECUTOR_KINDS)}, got {self.executor!r}"
            )
        if self.pool_size is not None and self.pool_size < 1:
            raise ConfigError(f"pool_size must be >= 1, got {self.pool_size}")
        if self.max_turns < 1:
            raise ConfigError(f"max_turns must be >= 1, got {self.max_turns}")
        self.budgets()  # raises ValueError naming the offending values
        if self.pages is not None:
            page_set(self.pages, self.max_page_bytes)  # every bad row fails now, with its id
        else:
            select_archetypes(self.dataset)  # an empty selection fails now, not at a row

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> ClassicOptions:
        """Build from ``load_environment`` keyword arguments; unknown ones raise with the list
        of valid ones (the trap of silently ignored settings)."""
        unknown = sorted(set(kwargs) - set(VALID_ARGUMENTS))
        if unknown:
            hints = [
                f"{name}: {V1_ONLY_FIELDS[name]}" for name in unknown if name in V1_ONLY_FIELDS
            ]
            hint = f" ({'; '.join(hints)})" if hints else ""
            raise ConfigError(
                f"unknown argument(s) {unknown}{hint}; valid arguments: {list(VALID_ARGUMENTS)}"
            )
        _check_types(kwargs)
        if kwargs.get("pages") is not None:
            clash = [name for name in PAGE_CLASHES if name in kwargs]
            if clash:
                raise ConfigError(f"pages= chooses its own rows; drop {clash}")
        dataset = DatasetConfig.from_kwargs(
            **{name: kwargs[name] for name in DATASET_FIELDS if name in kwargs}
        )
        own = (*ENGINE_FIELDS, *CLASSIC_FIELDS, *PAGE_FIELDS)
        rest = {name: kwargs[name] for name in own if name in kwargs}
        return cls(dataset=dataset, **rest)

    def budgets(self) -> Budgets:
        """The engine's per-episode limits."""
        return Budgets(
            max_tool_calls=self.max_tool_calls,
            timeout_s=self.timeout_s,
            max_output_bytes=self.max_output_bytes,
        )


_TYPES: dict[str, tuple[type, ...]] = {
    "split": (str,),
    "mode": (str,),
    "difficulty": (str, list, tuple, type(None)),
    "archetypes": (str, list, tuple, type(None)),
    "seed": (int, type(None)),
    "num_examples": (int, type(None)),
    "executor": (str,),
    "pool_size": (int, type(None)),
    "max_tool_calls": (int,),
    "timeout_s": (int, float),
    "max_output_bytes": (int,),
    "max_turns": (int,),
    "pages": (str, type(None)),
    "max_page_bytes": (int,),
}


def _check_types(values: dict[str, Any]) -> None:
    """JSON arguments (``-a '{...}'``, TOML ``args``) arrive untyped: reject a wrong type with
    its name instead of failing later inside the sandbox or the turn loop."""
    for name, value in values.items():
        allowed = _TYPES[name]
        if isinstance(value, bool) or not isinstance(value, allowed):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in allowed)
            raise ConfigError(f"{name} must be {names}, got {value!r}")
