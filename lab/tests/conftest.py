"""The lab's tests: the registry fixture, and each module kept whole in one xdist worker.

``make test`` runs these with the environment's tests in one pytest session (pytest-xdist,
``--dist loadgroup``); tests/conftest.py groups every module there. Run on their own
(``pytest lab/tests``) they get the same grouping here, so module-scoped fixtures (a trained
tiny adapter, a llama.cpp server) are still built once. Torch computes on one thread here.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bs4_env.tasks.registry import Registry, default_registry


@pytest.fixture(scope="session")
def registry() -> Registry:
    return default_registry()


@pytest.fixture(scope="session", autouse=True)
def one_torch_thread() -> Iterator[None]:
    """Torch on one thread for every lab test. The tiny models gain nothing from threads, and
    beside a second busy pytest worker (``make test`` runs one per core) torch's OpenMP
    threads spin-wait for a core: `test_token_rows_make_an_untrained_tag_writable` took 105
    CPU-s with the default two threads and 7.6 with one, beside a busy machine (2026-12-06)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        if path.startswith("lab/") and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(path))
