"""The end-to-end tests' processes cache their bytecode.

Each e2e test starts many Python processes that import the same thousands of modules:
``vf-eval`` and its tool server, verifiers' chat program once per rollout (openai, mcp, httpx
in a uv environment), classic ``vf-eval`` and its spawned env-server workers (verifiers 0.3 and
``datasets`` in ``build/venv-classic``), the Hub install's fresh venv. Those venvs are built by
``uv``, which writes no ``.pyc`` files; with ``PYTHONDONTWRITEBYTECODE`` set (as in many CI
images and this project's shells), every one of those processes compiled every module it
imported from source again: 3.5 of the 7 CPU-s of ``import beautiful_soup_env, verifiers`` in
the classic venv, 0.8 of the 1.8 CPU-s of the chat program's imports. For the e2e session the
variable is unset, so the first process to import a module writes its bytecode and the others
read it (CPython writes ``.pyc`` files atomically, so concurrent processes are safe). What the
processes do is unchanged; only where their bytecode comes from.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def bytecode_cache_for_subprocesses() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
        yield
