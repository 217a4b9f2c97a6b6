"""The Hub's environment check, in our own words: install the package alone, import, load, eval.

prime-environments checks every environment the same way: install its folder into a fresh
venv (``uv venv`` + ``uv pip install DIR``), import the module, load the environment, and run
one capped ``vf-eval`` rollout (``-n 1 -r 1``, a few turns, 512 tokens). Here the package is
installed without any extra (what ``prime env install`` gives a user), loaded the way
verifiers 0.4 resolves it (taskset, default harness, env), and evaluated with no flag but
the endpoint, against the scripted server. Its metadata checks (both forms of that test) are
in tests/test_hub_package.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from scripted_server import ScriptedServer
from vf_run import BIN, UV_CACHE, UV_EXCLUDE_NEWER, total_reward

from bs4_env.tasks.modes import DatasetConfig, build_rows

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
KEY_VAR = "BS4ENV_HUB_KEY"
LOAD = """
import beautiful_soup_env
from verifiers.v1.utils.loaders import (
    default_harness_id, environment_class, taskset_class, taskset_config_type,
)

config = taskset_config_type("beautiful-soup-env")(
    id="beautiful-soup-env", split="bench", num_examples=2
)
tasks = list(taskset_class("beautiful-soup-env")(config))
print(len(tasks), default_harness_id("beautiful-soup-env"),
      environment_class("beautiful-soup-env").__name__, sorted(beautiful_soup_env.__all__))
"""


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv (with pip) with the package installed from this checkout, no extras."""
    path = tmp_path_factory.mktemp("hub") / "venv"
    env = {**os.environ, "UV_CACHE_DIR": str(UV_CACHE), "UV_EXCLUDE_NEWER": UV_EXCLUDE_NEWER}
    for command in (
        [str(BIN / "uv"), "venv", "-q", "--seed", "--python", sys.executable, str(path)],
        [str(BIN / "uv"), "pip", "install", "-q", "--python", str(path / "bin" / "python"),
         str(ROOT)],
    ):  # fmt: skip
        proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr[-3000:]
    return path


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer(build_rows(DatasetConfig(split="train", num_examples=1))) as srv:
        yield srv


def _run(venv: Path, *command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": "/usr/bin:/bin", KEY_VAR: "scripted"}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def test_the_package_alone_imports_and_loads(venv: Path, tmp_path: Path) -> None:
    proc = _run(venv, str(venv / "bin" / "python"), "-c", LOAD, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == [
        "2",
        "beautiful-soup-env",
        "BeautifulSoupEnv",
        "['BeautifulSoupEnv',",
        "'BeautifulSoupHarness',",
        "'BeautifulSoupTaskset',",
        "'load_environment']",
    ]
    extras = _run(venv, str(venv / "bin" / "python"), "-c", "import torch", cwd=tmp_path)
    assert extras.returncode != 0, "the Hub install pulls no training stack"


def test_the_package_alone_evaluates_with_vf_eval(
    venv: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    proc = _run(
        venv,
        str(venv / "bin" / "vf-eval"), "beautiful-soup-env", "-m", "reference",
        "--client.base-url", server.base_url, "--client.api-key-var", KEY_VAR,
        "-n", "1", "-r", "1", "--env.agent.max-turns", "5",
        "--sampling.max-tokens", "512", "--no-rich",
        cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    (run,) = (tmp_path / "outputs").iterdir()
    episodes = [json.loads(line) for line in (run / "traces.jsonl").read_text().splitlines()]
    (trace,) = [t for e in episodes for t in e["traces"]]
    assert total_reward(trace) == 1.0, trace["info"].get("explanation")


def test_make_test_says_what_torch_will_download_without_a_local_wheel(venv: Path) -> None:
    """scripts/install_torch.py in a venv without torch, with pip's local wheel folders and
    config hidden: it lists every file pip would download, with sizes, and the CPU index."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    proc = subprocess.run(
        [str(venv / "bin" / "python"), str(ROOT / "scripts" / "install_torch.py"), "2.13.0",
         "--dry-run"],
        env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    print(proc.stdout)  # the figures quoted in docs/development.md
    assert proc.stdout.startswith("torch==2.13.0 comes from the index; pip will install:")
    assert "MB  torch-2.13.0-" in proc.stdout and " MB in all, " in proc.stdout
    assert "make test TORCH_INDEX=https://download.pytorch.org/whl/cpu" in proc.stdout
