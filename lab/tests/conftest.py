"""The lab's tests: the registry fixture, and each module kept whole in one xdist worker.

``make test`` runs these with the environment's tests in one pytest session (pytest-xdist,
``--dist loadgroup``); tests/conftest.py groups every module there. Run on their own
(``pytest lab/tests``) they get the same grouping here, so module-scoped fixtures (a trained
tiny adapter, a llama.cpp server) are still built once.
"""

from __future__ import annotations

import pytest

from bs4_env.tasks.registry import Registry, default_registry


@pytest.fixture(scope="session")
def registry() -> Registry:
    return default_registry()


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        if path.startswith("lab/") and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(path))
