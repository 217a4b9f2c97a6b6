"""What ``vf-eval beautiful-soup-env`` plays with when no flag says otherwise.

verifiers resolves a taskset's default harness and env from what the taskset's module
exports (``verifiers.v1.utils.loaders``: ``default_harness_id`` takes the module's
``vf.Harness`` subclass, ``environment_class`` its ``vf.Env`` subclass); without them it
picks the ``bash`` harness, which hands the model a shell, on the remote Prime runtime. So
``beautiful_soup_env`` exports both of these:

* ``BeautifulSoupHarness``: verifiers' tool-calling chat harness (``null``) as it is, except
  that on the local ``subprocess`` runtime its chat program talks to the model through
  ``history_proxy`` (the history sends back the arguments the engine ran, so strict
  endpoints parse it) and runs under this Python instead of a ``uv``-built environment.
  Every package the program declares is a requirement of verifiers itself, so it is already
  installed here (checked before the first rollout): no ``uv`` on PATH and no package index
  needed, which is what lets ``vf-eval`` run offline.
  In any other runtime (a sandbox, by flag) the program is prepared with ``uv`` there and
  talks to the endpoint directly, as the ``null`` harness does (the history keeps the
  model's raw arguments: the proxy listens on this host only).
* ``BeautifulSoupEnv``: verifiers' single-agent env whose one seat defaults to the local
  ``subprocess`` runtime (the tools are this package's own sandbox either way); the remote
  runtime stays one flag away: ``--env.agent.runtime.type prime``.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import verifiers.v1 as vf
from packaging.requirements import Requirement
from verifiers.v1.envs.single_agent import SingleAgentEnv, SingleAgentEnvConfig
from verifiers.v1.harnesses.null import NullHarness
from verifiers.v1.runtimes import SubprocessRuntime

from bs4_env.integrations.verifiers_v1.history_proxy import history_proxy

_DEPENDENCIES = re.compile(r"^# dependencies = (\[.*\])$", re.M)


def script_requirements(script: str) -> list[Requirement]:
    """The ``dependencies`` of a PEP 723 script header (one line, as verifiers writes it)."""
    match = _DEPENDENCIES.search(script)
    if match is None:
        raise ValueError("the harness program declares no PEP 723 dependencies line")
    names = re.findall(r'"([^"]+)"', match[1])
    return [Requirement(name) for name in names]


def unmet_requirements(script: str) -> list[str]:
    """Each declared requirement this interpreter does not satisfy, with what it has."""
    unmet = []
    for requirement in script_requirements(script):
        try:
            installed = version(requirement.name)
        except PackageNotFoundError:
            unmet.append(f"{requirement} (not installed)")
            continue
        if not requirement.specifier.contains(installed, prereleases=True):
            unmet.append(f"{requirement} (installed: {installed})")
    return unmet


class HostPythonRuntime:
    """A ``SubprocessRuntime`` whose PEP 723 scripts run under this interpreter.

    The harness program only asks its runtime to prepare a script and run it; everything
    else goes to the wrapped runtime unchanged.
    """

    def __init__(self, runtime: SubprocessRuntime) -> None:
        self._runtime = runtime

    def __getattr__(self, name: str) -> Any:
        return getattr(self._runtime, name)

    async def prepare_uv_script(
        self, script: str | bytes, env: dict[str, str] | None = None, **_: Any
    ) -> list[str]:
        text = script.decode() if isinstance(script, bytes) else script
        unmet = unmet_requirements(text)
        if unmet:
            raise RuntimeError(
                f"the chat program needs {', '.join(unmet)} in {sys.executable}; install "
                "them, or run the program in a uv-built environment with "
                "--env.agent.harness.id null (needs uv on PATH and the package index)"
            )
        data = text.encode()
        directory = Path(SubprocessRuntime.scripts_dir)
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{hashlib.sha256(data).hexdigest()}.host.py"
        if not path.exists():  # content-addressed: concurrent writers write the same bytes
            handle, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
            with os.fdopen(handle, "wb") as sink:
                sink.write(data)
            os.replace(tmp, path)
        return [sys.executable, str(path)]


def _host_python(runtime: Any) -> Any:
    return HostPythonRuntime(runtime) if isinstance(runtime, SubprocessRuntime) else runtime


class BeautifulSoupHarness(NullHarness):
    """verifiers' ``null`` harness; on the local runtime its program runs under this Python
    and its requests pass ``history_proxy``."""

    async def setup(self, runtime: Any) -> None:
        await super().setup(_host_python(runtime))

    async def launch(
        self, ctx: Any, trace: Any, runtime: Any, endpoint: str, *args: Any, **kwargs: Any
    ) -> Any:
        if not isinstance(runtime, SubprocessRuntime):
            return await super().launch(ctx, trace, runtime, endpoint, *args, **kwargs)
        async with history_proxy(endpoint) as proxied:
            return await super().launch(ctx, trace, _host_python(runtime), proxied, *args, **kwargs)


class BeautifulSoupEnvConfig(SingleAgentEnvConfig):
    """The single-agent env's config with the seat on the local runtime by default."""

    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())


class BeautifulSoupEnv(SingleAgentEnv, vf.Env[BeautifulSoupEnvConfig]):
    """verifiers' single-agent env (one ``agent`` seat), local runtime by default."""
