"""The ``run_python`` / ``navigate`` tool server (shared: one process per environment worker).

verifiers launches it as ``python -m bs4_env.integrations.verifiers_v1.toolset``. It knows no
task by itself: each call reads the rollout's identity and ``EpisodeState`` from the synced
``BS4State`` (written by ``BS4Task.setup``), runs through ``Episode.call_tool`` on this
server's sandbox executor and writes the state back. Tool names, descriptions and parameter
descriptions come from ``bs4_env.episode.tool_schema.TOOLS``, so the schema MCP advertises is
the one ``openai_tools()`` writes for ``bs4-env eval`` (tested).
"""

# No ``from __future__ import annotations``: MCP builds the tool schemas from these
# signatures through a wrapper whose globals are not this module's.
from typing import Annotated

import verifiers.v1 as vf
from pydantic import Field

from bs4_env.episode.executors import make_executor
from bs4_env.episode.tool_schema import TOOL_TEXTS
from bs4_env.integrations.verifiers_v1.config import BS4ToolsetConfig, EngineSettings
from bs4_env.integrations.verifiers_v1.state import BS4State, LazyExecutor, call_on_state
from bs4_env.sandbox.base import Executor

RUN_PYTHON = TOOL_TEXTS["run_python"]
NAVIGATE = TOOL_TEXTS["navigate"]
Code = Annotated[str, Field(description=RUN_PYTHON.param_description)]
Href = Annotated[str, Field(description=NAVIGATE.param_description)]


class EngineTools:
    """The two tools over the engine; mixed into a ``vf.Toolset`` with a config that has
    ``engine`` (shared or per-rollout)."""

    TOOL_PREFIX: str | None = None  # advertise bare names: run_python, navigate
    _executor: Executor | None = None

    @property
    def engine_settings(self) -> EngineSettings:
        settings: EngineSettings = self.config.engine  # type: ignore[attr-defined]
        return settings

    async def setup(self) -> None:
        """Start the sandbox executor once for this server's lifetime."""
        settings = self.engine_settings
        executor = make_executor(settings.executor, settings.pool_size)
        stack = self._exit_stack  # type: ignore[attr-defined]
        self._executor = await stack.enter_async_context(executor)

    async def _call(self, name: str, arguments: dict[str, object]) -> str:
        if self._executor is None:  # setup() not run (e.g. tests calling the tool directly)
            settings = self.engine_settings
            self._executor = LazyExecutor(settings.executor, settings.pool_size)
        state: BS4State = self.state  # type: ignore[attr-defined]
        budgets = self.engine_settings.budgets()
        return await call_on_state(state, name, arguments, self._executor, budgets)

    @vf.tool
    async def run_python(self, code: Code) -> str:
        return await self._call("run_python", {"code": code})

    @vf.tool
    async def navigate(self, href: Href) -> str:
        return await self._call("navigate", {"href": href})

    run_python.__doc__ = RUN_PYTHON.description
    navigate.__doc__ = NAVIGATE.description


class BS4Toolset(EngineTools, vf.Toolset[BS4ToolsetConfig, BS4State]):
    """Shared tool server: started once by ``BeautifulSoupTaskset.toolsets``."""


if __name__ == "__main__":
    BS4Toolset.run()
