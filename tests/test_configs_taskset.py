"""Every v1 taskset table of a prime-rl config builds our real ``BS4TasksetConfig``.

prime-rl narrows ``env.taskset`` to the installed taskset's config class (``extra="forbid"``),
so a typo or a bad value in a config fails there at launch; this test makes it fail in CI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bs4_env.cli.config_budget import sources
from bs4_env.cli.config_registry import PRIME_RL_DIR, config_files, config_kind, load_toml

pytestmark = pytest.mark.integration

V1_CONFIGS = [
    p for p in config_files() if config_kind(p) == "rl" and PRIME_RL_DIR / "legacy" not in p.parents
]


def _taskset_config(table: dict[str, Any]) -> Any:
    from bs4_env.integrations.verifiers_v1.config import BS4TasksetConfig

    return BS4TasksetConfig(**table)


@pytest.mark.parametrize("path", V1_CONFIGS, ids=lambda p: p.name)
def test_taskset_tables_build_our_taskset_config(path: Path) -> None:
    doc = load_toml(path)
    for group, source in sources(doc):
        config = _taskset_config(source["env"]["taskset"])
        assert config.dataset_config().split == ("train" if group == "train" else "bench")
        assert config.task.engine.max_output_bytes == source["env"]["taskset"]["max_output_bytes"]


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
