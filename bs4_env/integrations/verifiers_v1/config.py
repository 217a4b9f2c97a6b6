"""Config classes: the taskset arguments (``--env.taskset.<field>``) and what they feed.

Every class derives from ``vf.BaseConfig`` (``extra="forbid"``), so an unknown field is
rejected by verifiers itself. Dataset fields are validated once more by our own
``DatasetConfig.from_kwargs`` / ``select_archetypes`` so bad values get our messages, and the
engine settings by ``Budgets`` and the executor registry.

The engine settings (sandbox kind, pool size, budgets) are user-facing on the taskset config;
the taskset copies them into the task config (host side: repairs and grading) and into the
toolset config (tool server side), so there is a single source for both processes.
"""

from __future__ import annotations

from typing import Any, Literal

import verifiers.v1 as vf
from pydantic import model_validator

from bs4_env.episode.engine import Budgets
from bs4_env.episode.executors import EXECUTOR_KINDS
from bs4_env.pages.pageset import DEFAULT_MAX_PAGE_BYTES
from bs4_env.pages.sets import canonical_name, page_set
from bs4_env.sandbox.base import DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_S
from bs4_env.tasks.modes import ConfigError, DatasetConfig, select_archetypes

ENGINE_FIELDS = (
    "executor",
    "pool_size",
    "max_tool_calls",
    "timeout_s",
    "max_output_bytes",
    "tool_scope",
)
DATASET_FIELDS = ("split", "mode", "difficulty", "archetypes", "seed", "num_examples")
PAGE_FIELDS = ("pages", "pages_part", "max_page_bytes")
PAGE_CLASHES = {"split", "mode", "difficulty", "archetypes", "seed"}
"""Dataset fields that mean nothing for a page set (``num_examples`` takes a prefix)."""


class EngineSettings(vf.BaseConfig):
    """How tool calls run: the sandbox backend and the per-episode budgets."""

    executor: Literal["local", "subprocess"] = "local"
    pool_size: int | None = None
    max_tool_calls: int = Budgets().max_tool_calls
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES
    tool_scope: Literal["shared", "rollout"] = "shared"
    """``shared``: one tool server per worker (default, fast); ``rollout``: one per rollout."""

    @model_validator(mode="after")
    def _check(self) -> EngineSettings:
        if self.executor not in EXECUTOR_KINDS:
            raise ConfigError(f"executor must be one of {list(EXECUTOR_KINDS)}")
        if self.pool_size is not None and self.pool_size < 1:
            raise ConfigError(f"pool_size must be >= 1, got {self.pool_size}")
        self.budgets()  # raises ValueError with the offending values
        return self

    def budgets(self) -> Budgets:
        return Budgets(
            max_tool_calls=self.max_tool_calls,
            timeout_s=self.timeout_s,
            max_output_bytes=self.max_output_bytes,
        )


class BS4TaskConfig(vf.TaskConfig):
    """Per-task config. ``engine`` is filled in from the taskset's top-level fields."""

    engine: EngineSettings = EngineSettings()


class BS4ToolsetConfig(vf.SharedToolsetConfig):
    """Config of the shared tool server (one process per environment worker)."""

    engine: EngineSettings = EngineSettings()


class BS4RolloutToolsetConfig(vf.ToolsetConfig):
    """Config of the per-rollout tool server (a process per rollout; slower: docs/benchmarks.md)."""

    engine: EngineSettings = EngineSettings()


class BS4TasksetConfig(vf.TasksetConfig):
    """``vf-eval beautiful-soup-env --env.taskset.<field> VALUE`` (or ``[env.taskset]`` in TOML)."""

    # Which tasks (the same arguments as ``bs4-env eval`` / ``DatasetConfig``).
    split: str = "train"
    mode: str = "all"
    difficulty: str | list[str] | None = None
    archetypes: str | list[str] | None = None
    seed: int | None = None
    num_examples: int | None = None
    # Or labelled pages: "real", "real2" or a rows file (then the fields above but num_examples
    # unset), all of it or one part split by site: "train" (without num_examples: an endless
    # shuffled stream) or "eval" (docs/real-pages.md).
    pages: str | None = None
    pages_part: Literal["train", "eval"] | None = None
    max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES
    # How tool calls run.
    executor: Literal["local", "subprocess"] = "local"
    pool_size: int | None = None
    max_tool_calls: int = Budgets().max_tool_calls
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES
    tool_scope: Literal["shared", "rollout"] = "shared"

    task: BS4TaskConfig = BS4TaskConfig()
    tools: BS4ToolsetConfig = BS4ToolsetConfig()

    @model_validator(mode="after")
    def _validate_and_propagate(self) -> BS4TasksetConfig:
        if self.pages is not None:
            # Values, not ``model_fields_set``: prime-rl's env server passes every field along.
            defaults = {name: type(self).model_fields[name].default for name in PAGE_CLASHES}
            clash = sorted(name for name in PAGE_CLASHES if getattr(self, name) != defaults[name])
            if clash:
                raise ConfigError(f"pages= chooses its own rows; drop {clash}")
            # Every bad row fails now, with its id.
            page_set(self.page_source() or "", self.max_page_bytes)
        elif self.pages_part is not None:
            raise ConfigError("pages_part chooses a part of a page set: set pages too")
        else:
            self.dataset_config()
        engine = EngineSettings(**{name: getattr(self, name) for name in ENGINE_FIELDS})
        for name, sub in (("task", self.task), ("tools", self.tools)):
            if "engine" in sub.model_fields_set and sub.engine != engine:
                raise ConfigError(
                    f"set the engine settings on the taskset ({', '.join(ENGINE_FIELDS)}), "
                    f"not on taskset.{name}.engine"
                )
        self.task = self.task.model_copy(update={"engine": engine})
        self.tools = self.tools.model_copy(update={"engine": engine})
        return self

    def page_source(self) -> str | None:
        """The page set's canonical name, part included (None without ``pages``)."""
        if self.pages is None:
            return None
        try:
            return canonical_name(self.pages, self.pages_part)
        except ValueError as error:
            raise ConfigError(str(error)) from None

    def dataset_config(self) -> DatasetConfig:
        """Our dataset selection; raises ``ConfigError`` with the valid values."""
        kwargs: dict[str, Any] = {name: getattr(self, name) for name in DATASET_FIELDS}
        config = DatasetConfig.from_kwargs(**kwargs)
        select_archetypes(config)
        return config
