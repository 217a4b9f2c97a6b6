"""Every v1 taskset table of a prime-rl config builds our real ``BS4TasksetConfig``.

prime-rl narrows ``env.taskset`` to the installed taskset's config class (``extra="forbid"``),
so a typo or a bad value in a config fails there at launch; this test makes it fail in CI. A
table that names real pages loads them (every row checked), so their pages are fetched first
from a loopback copy of the pinned archives (tests/real_pages.py); a train table streams.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bs4_env.cli.config_budget import sources
from bs4_env.cli.config_registry import PRIME_RL_DIR, config_files, config_kind, load_toml
from bs4_env.pages.normalizers import NormalizationError, parse_normalization
from bs4_env.pages.sets import rows_path
from tests.real_pages import missing_reason, page_cache_set, shared_cache

pytestmark = pytest.mark.integration

V1_CONFIGS = [
    p for p in config_files() if config_kind(p) == "rl" and PRIME_RL_DIR / "legacy" not in p.parents
]


def _page_sets(path: Path) -> list[str]:
    return [
        f"{t['pages']}#{t['pages_part']}" if t.get("pages_part") else t["pages"]
        for _, source in sources(load_toml(path))
        if "pages" in (t := source["env"]["taskset"])
    ]


@pytest.fixture(scope="module")
def page_cache() -> Iterator[Path | None]:
    """The pages every config's page sets name, fetched into a cache (None: no config has any)."""
    names = sorted({name for path in V1_CONFIGS for name in _page_sets(path)})
    if not names:
        yield None
        return
    reason = missing_reason()
    try:
        parse_normalization({"kind": "list", "item": "text", "ordered": True}, "", "")
    except NormalizationError as error:
        reason = f"waiting on the list and record normalisers (branch real-lists): {error}"
    if reason:
        pytest.skip(reason)
    with page_cache_set(shared_cache(sorted({rows_path(name) for name in names}))) as root:
        yield root


def _taskset_config(table: dict[str, Any]) -> Any:
    from bs4_env.integrations.verifiers_v1.config import BS4TasksetConfig

    return BS4TasksetConfig(**table)


@pytest.mark.parametrize("path", V1_CONFIGS, ids=lambda p: p.name)
def test_taskset_tables_build_our_taskset_config(
    path: Path, request: pytest.FixtureRequest
) -> None:
    doc = load_toml(path)
    if _page_sets(path):
        request.getfixturevalue("page_cache")
    for group, source in sources(doc):
        config = _taskset_config(source["env"]["taskset"])
        assert config.dataset_config().split == ("train" if group == "train" else "bench")
        assert config.task.engine.max_output_bytes == source["env"]["taskset"]["max_output_bytes"]
        if config.pages is not None:
            from bs4_env.integrations.verifiers_v1.taskset import BeautifulSoupTaskset

            assert group == "train" and config.pages_part == "train"
            assert type(BeautifulSoupTaskset(config)).INFINITE is True


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"mdoe": "tiered"}, "mdoe"),
        ({"mode": "tierd"}, "mode must be one of"),
        ({"max_tool_calls": "many"}, "max_tool_calls"),
        ({"executor": "docker"}, "executor"),
    ],
)
def test_taskset_config_rejects_typos_and_bad_values(change: dict[str, Any], expected: str) -> None:
    doc = load_toml(PRIME_RL_DIR / "qwen3-4b-lora-2xh100.toml")
    table = {**doc["orchestrator"]["train"]["source"][0]["env"]["taskset"], **change}
    with pytest.raises(ValueError, match=expected):
        _taskset_config(table)
